/** POST /admin/events over real HTTP: duplicates counted once, malformed lines reported by number, 401/403/413. */
import { describe, expect, it } from 'vitest'
import { MemoryStore, parseConfig } from '../../src/service/index.js'
import { jsonl, KEYS, makeEvent, request, schemaErrors, serveForTest, unlimitedConfig } from './support.js'

const admin = { authorization: `Bearer ${KEYS.admin}` }

describe('POST /admin/events', async () => {
  const service = await serveForTest({ store: new MemoryStore(), config: unlimitedConfig({ max_body_bytes: 64 * 1024 }) })
  const post = (body: string | Buffer, headers: Record<string, string> = admin) =>
    request(service.url, '/admin/events', { method: 'POST', body, headers })

  it('counts duplicates once and reports a malformed line by number while accepting the rest', async () => {
    const a = makeEvent({ ip: '192.0.2.1', host: 'www.ingest.test', port: '443', time: '2024-01-01T00:00:00Z' })
    const b = makeEvent({ ip: '192.0.2.2', host: 'api.ingest.test', port: '80' })
    const lines = [JSON.stringify(a), '{"event_type": "service", oops', JSON.stringify({ ...a, time: '2024-02-02T00:00:00Z' }), '', JSON.stringify(b), JSON.stringify({ ...b, time: 'soon' })]
    const answer = await post(lines.join('\r\n'))
    expect(answer.status).toBe(200)
    expect(answer.headers['content-type']).toBe('application/json')
    const report = answer.json as { accepted: number; duplicates: number; rejected: { line: number; errors: { code: string; pointer: string }[] }[] }
    expect(report.accepted).toBe(2)
    expect(report.duplicates).toBe(1)
    expect(report.rejected.map((r) => [r.line, r.errors[0]!.code, r.errors[0]!.pointer])).toEqual([
      [2, 'bad_json', ''],
      [6, 'bad_timestamp', '/time'],
    ])
    // Stored and findable, once, with the later time.
    const found = (await request(service.url, '/domain/ingest.test')).json as { Services: { time: string }[] }
    expect(found.Services).toHaveLength(2)
    expect(found.Services.map((e) => e.time)).toContain('2024-02-02T00:00:00Z')
    expect(schemaErrors('lookup-result', found)).toEqual([])
  })

  it('takes a JSON array, reporting elements by the line they start on', async () => {
    const body = `[\n${JSON.stringify(makeEvent({ ip: '192.0.2.3' }))},\n{"time": 12},\n${JSON.stringify(makeEvent({ ip: '192.0.2.3' }))}\n]`
    const report = (await post(body)).json as { accepted: number; rejected: { line: number }[] }
    expect(report.accepted).toBe(2)
    expect(report.rejected.map((r) => r.line)).toEqual([3])
  })

  it('answers 401 without the admin token or with a wrong one, and with an API key', async () => {
    const body = jsonl([makeEvent({ ip: '192.0.2.4' })])
    for (const headers of [{}, { authorization: 'Bearer wrong-token' }, { authorization: KEYS.admin }, { 'api-key': KEYS.pro }] as Record<string, string>[]) {
      const answer = await post(body, headers)
      expect(answer.status).toBe(401)
      expect(schemaErrors('error', answer.json)).toEqual([])
    }
  })

  it('answers 413 above the body limit, declared or streamed', async () => {
    const big = jsonl(Array.from({ length: 200 }, (_, i) => makeEvent({ ip: `192.0.2.${i}` })))
    expect(big.length).toBeGreaterThan(64 * 1024)
    const declared = await post(big)
    expect(declared.status).toBe(413)
    expect(schemaErrors('error', declared.json)).toEqual([])
    const streamed = await request(service.url, '/admin/events', { method: 'POST', headers: { ...admin, 'transfer-encoding': 'chunked' }, body: big })
    expect(streamed.status).toBe(413)
  })

  it('answers 403 when the configuration has no admin token', async () => {
    const closed = await serveForTest({ store: new MemoryStore(), config: parseConfig('{}', 'empty.json') })
    const answer = await request(closed.url, '/admin/events', { method: 'POST', body: '[]', headers: admin })
    expect(answer.status).toBe(403)
    expect(schemaErrors('error', answer.json)).toEqual([])
  })
})
