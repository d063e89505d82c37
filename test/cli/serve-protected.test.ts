/** `l9kit serve` protected demo: the demo keys only on loopback; a short admin token is warned about. */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import type { Io } from '../../src/cli/command.js'
import { main } from '../../src/cli/program.js'
import { isLoopbackHost } from '../../src/cli/protected-demo.js'
import { Capture, runCli } from '../support/streams.js'
import { fileTempDir } from '../support/temp.js'

const dir = fileTempDir('l9kit-serve-protected-')

describe('l9kit serve protected demo', () => {
  it('refuses a non-loopback --host without --config: exit 2, saying why and how, before listening', async () => {
    for (const host of ['0.0.0.0', '::', '192.0.2.1', 'example.com']) {
      const run = await runCli(['serve', '--port', '0', '--host', host])
      expect(run.code, host).toBe(2)
      expect(run.stdout).toBe('')
      expect(run.stderr).toContain(`refusing to listen on ${host} with the built-in demo keys`)
      expect(run.stderr).toContain('--config FILE')
      expect(run.stderr).not.toMatch(/\n\s+at /)
    }
  })

  it('accepts any address with --config (here one not on this machine, so nothing listens)', async () => {
    const config = join(dir, 'keys.json')
    writeFileSync(config, JSON.stringify({ keys: [], admin_token: 'a-long-enough-admin-token' }))
    const run = await runCli(['serve', '--port', '0', '--host', '192.0.2.1', '--config', config])
    expect(run.code).toBe(2)
    expect(run.stderr).not.toContain('refusing')
    expect(run.stderr).toContain('cannot listen on 192.0.2.1')
    expect(run.stderr).not.toContain('warning')
  })

  it('tells loopback addresses from the others', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', 'localhost', 'LOCALHOST']) expect(isLoopbackHost(host), host).toBe(true)
    for (const host of ['0.0.0.0', '::', '10.0.0.1', '128.0.0.1', '::2', 'example.com', 'localhost.example.com', '']) expect(isLoopbackHost(host), host).toBe(false)
  })

  it('warns on standard error when the admin token is shorter than 16 characters, and still starts', async () => {
    const config = join(dir, 'short.json')
    writeFileSync(config, JSON.stringify({ keys: [], admin_token: 'short-tok1' }))
    const stdout = new Capture()
    const stderr = new Capture()
    const controller = new AbortController()
    const io: Io = { stdin: Readable.from([]), stdout, stderr, stderrIsTTY: false, env: {}, stopSignal: controller.signal }
    writeFileSync(join(dir, 'none.jsonl'), '')
    const exit = main(['serve', '--port', '0', '--config', config, '--load', join(dir, 'none.jsonl')], io)
    while (!stdout.text.startsWith('listening on')) await new Promise((r) => setTimeout(r, 10))
    controller.abort()
    expect(await exit).toBe(0)
    expect(stdout.text).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\n/)
    expect(stderr.text).toContain(`${config}: /admin_token: shorter than 16 characters`)
    expect(stderr.text).not.toContain('short-tok1')
  })
})
