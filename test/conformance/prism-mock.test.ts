/**
 * Stoplight Prism's mock serving schema/openapi.json's own examples on 127.0.0.1, judged by
 * `l9kit conform --stateless`: every check a stateless server can pass passes, the others are
 * skipped with their reason (docs/conformance.md, Stateless servers). Prism also generates
 * headers from their schemas (`Prefer: dynamic=true`): a 429's `x-limited-for` must be a header
 * Node can send and the client can read. Where Prism cannot start this is one named skip; under
 * CI=true it is a failure.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { limitedFor, parseDurationHeader } from '../../src/client/index.js'
import { CHECKS } from '../../src/conformance/index.js'
import { runCli } from '../support/streams.js'
import { testTempDir } from '../support/temp.js'

const root = new URL('../..', import.meta.url).pathname
const PRISM = `${root}node_modules/.bin/prism`
const ENV = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }
const STARTUP_MS = 60_000

const probe = spawnSync(PRISM, ['--version'], { encoding: 'utf8', timeout: 120_000, env: ENV })
const startError = probe.status === 0 ? undefined : `Prism cannot start (${PRISM}): ${probe.error?.message ?? probe.stderr.trim().split('\n')[0]}`

/** A port free on 127.0.0.1 a moment ago (Prism takes a port number, not 0). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** Starts `prism mock` and resolves once it listens; rejects with its output if it exits or stays silent. */
async function startPrism(port: number): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(PRISM, ['mock', join(root, 'schema/openapi.json'), '-h', '127.0.0.1', '-p', String(port)], { env: ENV, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`prism did not listen within ${STARTUP_MS} ms:\n${output}`)), STARTUP_MS)
    const seen = (chunk: Buffer) => {
      output += chunk.toString()
      if (/Prism is listening/.test(output)) {
        clearTimeout(timer)
        resolve()
      }
    }
    child.stdout!.on('data', seen)
    child.stderr!.on('data', seen)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`prism exited (${code}) before listening:\n${output}`))
    })
  })
  try {
    await ready
  } catch (error) {
    await stopPrism(child)
    throw error
  }
  return { child, output: () => output }
}

/** Stops the one process this test started: SIGTERM, then SIGKILL after 10 s. */
async function stopPrism(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
  await exited
  clearTimeout(timer)
}

describe('conformance suite against Prism mocking the OpenAPI document', () => {
  if (startError !== undefined) {
    if (process.env.CI === 'true') it('has Prism in CI', () => expect.fail(`${startError}; CI must run it, not skip it`))
    else it.skip(`skipped: ${startError}`, () => {})
    return
  }

  let prism: Awaited<ReturnType<typeof startPrism>> | undefined
  let url = ''
  beforeAll(async () => {
    const port = await freePort()
    prism = await startPrism(port)
    url = `http://127.0.0.1:${port}`
  }, STARTUP_MS + 60_000)
  afterAll(async () => {
    if (prism) await stopPrism(prism.child)
  }, 180_000)

  it('passes every check a stateless server can pass, and skips the others with their reason', async () => {
    const report = join(testTempDir('l9kit-prism-'), 'report.json')
    // The names the document's examples hold: its lookup example's address and domain.
    const r = await runCli(['conform', '--base-url', url, '--stateless', '--ip', '192.0.2.10', '--domain', 'example.com', '--rate', 'auto', '--seed', '20', '--max-response-time', '60000', '--report', `json:${report}`])
    const results = JSON.parse(readFileSync(report, 'utf8')).checks as { id: string; status: string; message?: string }[]
    const byId = new Map(results.map((x) => [x.id, x]))
    const stateless = CHECKS.filter((c) => c.needsState === undefined)
    expect(stateless.length).toBeGreaterThanOrEqual(15)
    for (const check of stateless) expect(byId.get(check.id), `${check.id}\n${r.stdout}`).toMatchObject({ status: 'passed' })
    for (const check of CHECKS.filter((c) => c.needsState !== undefined)) {
      expect(byId.get(check.id)).toEqual(expect.objectContaining({ status: 'skipped', message: `not for a stateless server (--stateless): ${check.needsState}` }))
    }
    expect(r.code, r.stdout + r.stderr).toBe(0)
  }, 360_000)

  it('serves the 429 example and generated 429s with an x-limited-for Node can send and the client reads', async () => {
    const api = JSON.parse(readFileSync(join(root, 'schema/openapi.json'), 'utf8'))
    const pattern = new RegExp(api.components.headers['x-limited-for'].schema.pattern)
    const example = await fetch(`${url}/host/192.0.2.10`, { headers: { prefer: 'code=429' } })
    await example.text()
    expect(example.status).toBe(429)
    expect(limitedFor({ headers: { 'x-limited-for': example.headers.get('x-limited-for') ?? '' } })).toBe(734)
    // Generated from the header's schema: a non-ASCII pattern made some of these a 500 (ERR_INVALID_CHAR).
    for (let i = 0; i < 24; i++) {
      const generated = await fetch(`${url}/api/subdomains/example.com`, { headers: { prefer: 'code=429, dynamic=true' } })
      await generated.text()
      expect(generated.status, prism!.output().slice(-2000)).toBe(429)
      const header = generated.headers.get('x-limited-for') ?? ''
      expect(header).toMatch(pattern)
      // Read as a Go duration (generated ones may pass int64's range: then a reason, not a throw).
      const parsed = parseDurationHeader(header)
      expect(parsed.ok || /out of range/.test(parsed.reason), header).toBe(true)
    }
  }, 180_000)
})
