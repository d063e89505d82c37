/**
 * The HAR cassette (`--report har:FILE`) and its replay (`--replay FILE --check ID`): a run
 * against the reference service with every write (hooks, live stream, lifecycle), so keys, the
 * admin token, hook secrets and signatures all pass through it; the file validates against the
 * HAR 1.2 JSON Schema (har/har-1.2.schema.json, written from the specification's field list)
 * and holds none of them. The replay sends a check's requests again: to the same server they
 * are answered as recorded, to a server with a planted fault they are not.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Ajv } from 'ajv'
import formats from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_SECRETS } from '../../src/service/index.js'
import { runCli } from '../support/streams.js'
import { fileTempDir } from '../support/temp.js'
import { proxy, type Running, service } from './mutants/harness.js'

let reference: Running
let broken: Running
const dir = fileTempDir('l9kit-har-')
const har = join(dir, 'run.har')
const KEYS = ['--api-key', DEMO_SECRETS.registered, '--pro-key', DEMO_SECRETS.pro, '--admin-token', DEMO_SECRETS.admin]

beforeAll(async () => {
  reference = await service()
  // The same service with one fault: an unknown key is served as no key.
  broken = await proxy(reference.url, {
    request: (asked) => (asked.headers['api-key'] && !Object.values<string>(DEMO_SECRETS).includes(String(asked.headers['api-key'])) ? { ...asked, headers: { ...asked.headers, 'api-key': '' } } : asked),
  })
})

afterAll(async () => {
  await broken?.close()
  await reference?.close()
})

describe('the HAR cassette', () => {
  it('records every exchange of a run with writes, valid HAR 1.2, with no key, token, hook secret or signature in it', { timeout: 120_000 }, async () => {
    const checks = ['wrong-key-refused', 'plugin-found', 'hook-delivered', 'hook-signature-valid', 'live-delivers', 'created-readable', 'key-required']
    const r = await runCli(['conform', '--base-url', reference.url, ...KEYS, '--allow-writes', '--hook-receiver', '--hook-wait', '5000', '--domain', 'example.com', '--rate', 'auto', '--seed', '44', '--checks', checks.join(','), '--report', `har:${har}`])
    expect(r.code, r.stdout + r.stderr).toBe(0)
    const text = readFileSync(har, 'utf8')
    const doc = JSON.parse(text)
    const schema = JSON.parse(readFileSync(new URL('./har/har-1.2.schema.json', import.meta.url), 'utf8'))
    const ajv = new Ajv({ allErrors: true, strict: false })
    // ajv-formats is CommonJS: its plugin is the module's `default`.
    ;(formats as unknown as { default: (a: Ajv) => void }).default(ajv)
    const validate = ajv.compile(schema)
    expect(validate(doc), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true)
    const entries = doc.log.entries as { request: { method: string; url: string; headers: { name: string; value: string }[] }; _checks: string[]; _incoming?: boolean; _webSocketMessages?: unknown[] }[]
    // What passed through it: keyed requests, admin writes, hook registrations, deliveries, a WebSocket.
    expect(entries.some((e) => e.request.headers.some((h) => h.name === 'api-key' && h.value === '[redacted]'))).toBe(true)
    expect(entries.some((e) => e.request.headers.some((h) => h.name === 'authorization' && h.value === 'Bearer [redacted]'))).toBe(true)
    expect(entries.some((e) => e.request.method === 'POST' && e.request.url.endsWith('/api/hooks'))).toBe(true)
    expect(entries.some((e) => e._incoming && e.request.headers.some((h) => h.name === 'webhook-signature' && h.value === 'v1,[redacted]'))).toBe(true)
    expect(entries.some((e) => e._webSocketMessages !== undefined && e._webSocketMessages.length > 0)).toBe(true)
    for (const check of checks) expect(entries.some((e) => e._checks.includes(check)), check).toBe(true)
    // No secret anywhere: the demo keys and token, hook secrets (whsec_…), signatures (v1,…).
    for (const secret of Object.values(DEMO_SECRETS)) expect(text.includes(secret), secret).toBe(false)
    expect(text).not.toMatch(/whsec_[A-Za-z0-9+/=]{8,}/)
    expect(text).not.toMatch(/v1,[A-Za-z0-9+/]{20,}/)
    expect(text).not.toMatch(/"secret"\s*:\s*"(?!\[redacted\])/)
  })

  it('replays a check’s requests: answered as recorded by the same server, differently by a broken one', { timeout: 60_000 }, async () => {
    const same = await runCli(['conform', '--replay', har, '--check', 'wrong-key-refused', ...KEYS, '--rate', 'auto'])
    expect(same.code, same.stderr).toBe(0)
    expect(same.stdout).toMatch(/^same {2}GET \/api\/subdomains\/example\.com \(wrong\): recorded 401, now 401$/m)
    expect(same.stdout).toMatch(/: \d+ answered as recorded, 0 differently$/m)
    const other = await runCli(['conform', '--replay', har, '--check', 'wrong-key-refused', '--base-url', broken.url, ...KEYS, '--rate', 'auto'])
    expect(other.code, other.stderr).toBe(0)
    expect(other.stdout).toMatch(/^DIFF {2}GET \/api\/subdomains\/example\.com \(wrong\): recorded 401, now 200$/m)
    expect(other.stdout).toContain(`to ${broken.url}`)
    const unknown = await runCli(['conform', '--replay', har, '--check', 'no-such-check'])
    expect([unknown.code, unknown.stderr]).toEqual([2, expect.stringMatching(/no request of check 'no-such-check' in .*run\.har \(its checks: .*wrong-key-refused/)])
  })
})
