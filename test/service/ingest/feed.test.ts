/** ingestStream: JSON Lines, arrays and single documents; line numbers; bytes kept exactly. */
import { describe, expect, it } from 'vitest'
import { serializeEvent } from '../../../src/normalize/index.js'
import { ingestStream, ingestText, MemoryStore } from '../../../src/service/index.js'
import { makeEvent } from '../support.js'

async function* chunks(...parts: (string | Buffer)[]) {
  for (const p of parts) yield typeof p === 'string' ? Buffer.from(p) : p
}
const stored = async (store: MemoryStore, ip: string) =>
  (await store.host(ip))!.services.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8'))

describe('ingestStream', () => {
  it('reads JSON Lines with a BOM, CRLF, blank lines and lines split across chunks', async () => {
    const a = serializeEvent(makeEvent({ ip: '192.0.2.1', summary: 'Île-de-France ✓', event_fingerprint: '1'.repeat(64) }))
    const b = serializeEvent(makeEvent({ ip: '192.0.2.1', summary: 'second', event_fingerprint: '2'.repeat(64) }))
    const text = `\uFEFF${a}\r\n\r\n${b}\r\n{bad\r\n`
    const bytes = Buffer.from(text)
    const store = new MemoryStore()
    const report = await ingestStream(store, chunks(bytes.subarray(0, 10), bytes.subarray(10, a.length + 20), bytes.subarray(a.length + 20)))
    expect(report.accepted).toBe(2)
    expect(report.rejected.map((r) => [r.line, r.errors[0]!.code])).toEqual([[4, 'bad_json']])
    expect((await stored(store, '192.0.2.1')).sort()).toEqual([a, b].sort())
  })

  it('stores valid UTF-8 even when the input is not', async () => {
    const event = makeEvent({ ip: '192.0.2.2', summary: 'XX', event_fingerprint: '3'.repeat(64) })
    const bytes = Buffer.from(serializeEvent(event) + '\n')
    bytes[bytes.indexOf('XX')] = 0xff // an invalid byte inside the summary
    const store = new MemoryStore()
    expect((await ingestStream(store, chunks(bytes))).accepted).toBe(1)
    const [json] = await stored(store, '192.0.2.2')
    expect(JSON.parse(json!).summary).toBe('\uFFFDX')
  })

  it('takes a one-line array, a multi-line array and a pretty-printed document', async () => {
    const e = (n: number) => makeEvent({ ip: `192.0.2.${n}` })
    const store = new MemoryStore()
    expect(await ingestText(store, JSON.stringify([e(10), e(11)]) + '\n' + JSON.stringify(e(12)))).toMatchObject({ accepted: 3, rejected: [] })
    const text = JSON.stringify([e(13), { time: 1 }, e(14)], null, 2)
    const pretty = await ingestText(store, text)
    expect(pretty.accepted).toBe(2)
    expect(pretty.rejected.map((r) => r.line)).toEqual([text.slice(0, text.indexOf('{\n    "time": 1')).split('\n').length])
    expect(await ingestText(store, JSON.stringify(e(15), null, 2))).toMatchObject({ accepted: 1, rejected: [] })
    expect(store.size).toBe(6)
  })

  it('reports an empty body as nothing done', async () => {
    expect(await ingestText(new MemoryStore(), '')).toEqual({ accepted: 0, duplicates: 0, rejected: [] })
  })
})
