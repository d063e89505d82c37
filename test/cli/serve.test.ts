/** `l9kit serve`: first line, demo keys, --config, --load, usage errors, graceful stop (in-process and as a process). */
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { packageRoot } from '../../src/service/index.js'
import { jsonl, makeEvent, request } from '../service/support.js'
import { BUILT_CLI } from '../support/built-cli.js'
import { Lines, running } from '../support/running.js'
import { fileTempDir } from '../support/temp.js'
import { hasChrt, ownNice, SCHED_IDLE, threadsOf } from '../support/threads.js'

/** Runs `l9kit serve ...` in-process until `stop()`. */
const serve = (argv: string[]) => running(['serve', ...argv])

const dir = fileTempDir('l9kit-serve-')

describe('l9kit serve', () => {
  it('with no options: the embedded default, first line "listening on", then the demo keys', async () => {
    const run = serve(['--port', '0'])
    const url = await run.url()
    expect(run.stdout.text.split('\n')[0]).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/)
    expect(run.stdout.text).toContain('api-key: l9kit-demo-registered')
    expect(run.stdout.text).toContain('api-key: l9kit-demo-pro')
    expect(run.stdout.text).toContain('Bearer l9kit-demo-admin')
    const domain = (await request(url!, '/domain/example.com')).json as { Services: unknown[]; Leaks: unknown[] }
    expect(domain.Services.length).toBeGreaterThan(5)
    expect(domain.Leaks.length).toBeGreaterThan(3)
    const subs = (await request(url!, '/api/subdomains/example.com', { headers: { 'api-key': 'l9kit-demo-pro' } })).json as unknown[]
    expect(subs.length).toBeGreaterThan(10)
    // In-process (no Io.ownsProcess), this process's threads keep their priority: the change would outlast the command.
    if (process.platform === 'linux') for (const t of threadsOf(process.pid)) expect(t).toMatchObject({ nice: ownNice, policy: 0 })
    expect(await run.stop()).toBe(0)
    expect(run.stderr.text).toMatch(/loaded \d+ events/)
    expect(run.stderr.text).toContain('stopped')
  })

  it('--config uses its keys (no demo keys) and --load replaces the bundled data, reporting bad lines', async () => {
    const config = join(dir, 'keys.json')
    writeFileSync(config, JSON.stringify({ keys: [{ name: 'me', key: 'my-own-key-1', plan: 'pro' }], plans: { anonymous: { rate: null } } }))
    const events = join(dir, 'events.jsonl')
    writeFileSync(events, jsonl([makeEvent({ host: 'www.loaded.test', ip: '192.0.2.7' })]) + 'not json\n')
    const run = serve(['--port', '0', '--config', config, '--load', events])
    const url = await run.url()
    expect(run.stdout.text).not.toContain('demo')
    expect((await request(url!, '/host/192.0.2.7')).json).toMatchObject({ Services: [{ host: 'www.loaded.test' }], Leaks: null })
    expect((await request(url!, '/domain/example.com')).json).toEqual({ Services: null, Leaks: null })
    expect((await request(url!, '/host/192.0.2.7', { headers: { 'api-key': 'l9kit-demo-pro' } })).status).toBe(401)
    expect((await request(url!, '/host/192.0.2.7', { headers: { 'api-key': 'my-own-key-1' } })).status).toBe(200)
    expect(await run.stop()).toBe(0)
    expect(run.stderr.text).toContain(`${events}:2: (document): not valid JSON`)
    expect(run.stderr.text).toContain(`${events}: 1 new, 0 duplicates, 1 rejected`)
  })

  it('--config without --load serves an empty store (no demo data); --demo asks for the demo data with its own keys', async () => {
    const config = join(dir, 'own-keys.json')
    writeFileSync(config, JSON.stringify({ keys: [{ name: 'me', key: 'my-own-key-2', plan: 'pro' }], plans: { anonymous: { rate: null } } }))
    const empty = serve(['--port', '0', '--config', config])
    const url = await empty.url()
    expect((await request(url!, '/domain/example.com')).json).toEqual({ Services: null, Leaks: null })
    expect(await empty.stop()).toBe(0)
    expect(empty.stderr.text).toContain('loaded 0 events (an empty store: --load FILE for your events, --demo for the demo data)')
    const demo = serve(['--port', '0', '--config', config, '--demo'])
    const demoUrl = await demo.url()
    expect(((await request(demoUrl!, '/domain/example.com')).json as { Services: unknown[] }).Services.length).toBeGreaterThan(5)
    expect(demo.stdout.text).not.toContain('demo keys')
    expect((await request(demoUrl!, '/host/192.0.2.10', { headers: { 'api-key': 'l9kit-demo-pro' } })).status).toBe(401)
    expect(await demo.stop()).toBe(0)
  })

  it('exits 2 with file: /pointer: message lines for a bad config, before listening', async () => {
    const config = join(dir, 'bad.json')
    writeFileSync(config, JSON.stringify({ keys: [{ name: 'x', key: 'secret-value-1', plan: 'gold' }], colour: 1 }))
    const run = serve(['--port', '0', '--config', config])
    expect(await run.exit).toBe(2)
    expect(run.stdout.text).toBe('')
    expect(run.stderr.text).toContain(`${config}: /colour: unknown member`)
    expect(run.stderr.text).toContain(`${config}: /keys/0/plan: must be one of registered, pro (got "gold")`)
    expect(run.stderr.text).not.toContain('secret-value-1')
    expect(run.stderr.text).not.toMatch(/at .*\.ts:\d+/)
  })

  it('exits 2 for a bad port, a port in use and a missing --load file', async () => {
    const busy = createServer()
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve))
    const port = (busy.address() as { port: number }).port
    try {
      for (const [argv, message] of [
        [['--port', 'x'], /--port must be an integer 0–65535/],
        [['--port', '70000'], /--port must be an integer 0–65535/],
        [['--port', String(port)], /cannot listen on 127\.0\.0\.1:\d+: the address is already in use/],
        [['--port', '0', '--load', join(dir, 'missing.jsonl')], /missing\.jsonl: no such file or directory/],
        [['--colour'], /Unknown option '--colour'/],
      ] as [string[], RegExp][]) {
        const run = serve(argv)
        expect(await run.exit, argv.join(' ')).toBe(2)
        expect(run.stderr.text).toMatch(message)
        expect(run.stdout.text).toBe('')
      }
    } finally {
      busy.close()
    }
  })

  it('stops cleanly on SIGTERM as a real process, its helper threads lowered', async () => {
    const root = packageRoot()
    // The built binary (tsx would compile the sources first: long on a busy machine), its helpers at
    // their default priority (the suite sets L9KIT_HELPER_PRIORITY=0: vitest.config.ts).
    const env = { ...process.env, L9KIT_HELPER_PRIORITY: '' }
    const child = spawn(process.execPath, [BUILT_CLI, 'serve', '--port', '0'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env })
    const out = new Lines()
    const err = new Lines()
    child.stdout.pipe(out)
    child.stderr.pipe(err)
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
    const [, url] = (await Promise.race([out.waitFor(/^listening on (http:\/\/\S+)\n/), exited.then(() => [])])) as string[]
    expect(url, out.text + err.text).toBeDefined()
    expect((await request(url!, '/host/192.0.2.10')).status).toBe(200)
    if (process.platform === 'linux') {
      // Ingest is on (the demo admin token): every thread but the one that answers lookups is in
      // the idle class, or at the lowest niceness without chrt (helper-threads.ts).
      const others = threadsOf(child.pid!).filter((t) => t.tid !== child.pid)
      expect(others.length).toBeGreaterThanOrEqual(4)
      for (const t of others) expect(hasChrt ? t.policy : t.nice).toBe(hasChrt ? SCHED_IDLE : 19)
      expect(threadsOf(child.pid!).find((t) => t.tid === child.pid)).toMatchObject({ nice: ownNice, policy: 0 })
    }
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
  }, 300_000) // (its helper threads are in the idle class: slow to get a core on a busy machine)
})
