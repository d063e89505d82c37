/** The client's bulkSearch() and bulkServices() against the reference service, and its JSON Lines reader on awkward chunks. */
import { describe, expect, it } from 'vitest'
import { ClientError, LookupClient } from '../../src/client/index.js'
import { jsonLines } from '../../src/client/bulk.js'
import type { RawResponse } from '../../src/client/index.js'
import { MemoryStore } from '../../src/service/index.js'
import { KEYS, makeEvent, serveForTest, unlimitedConfig } from '../service/support.js'

describe('client: the bulk export', async () => {
  const store = new MemoryStore()
  const leak = (ip: string, port: string) => makeEvent({ event_type: 'leak', ip, port, event_source: 'RedisOpenPlugin', leak: { ...makeEvent({}).leak, severity: 'high' } })
  store.ingest([leak('192.0.2.1', '6379'), leak('192.0.2.1', '6380'), leak('192.0.2.2', '6379'), makeEvent({ ip: '192.0.2.3', port: '22' }), makeEvent({ ip: '192.0.2.4', port: '80' })])
  for (let i = 0; i < 300; i++) store.ingest([makeEvent({ ip: `10.0.${i >> 8}.${i & 255}`, port: '443', summary: `many ${i} ${'y'.repeat(600)}` })])
  const service = await serveForTest({ store, config: unlimitedConfig() })
  const client = new LookupClient({ baseUrl: service.url, apiKey: KEYS.pro, rate: 'auto' })

  it('bulkSearch() yields typed aggregations, one per resource', async () => {
    const got = []
    for await (const a of client.bulkSearch('+plugin:RedisOpenPlugin')) got.push(a)
    expect(got.map((a) => [a.resource_id, a.leak_event_count, a.open_ports]).sort()).toEqual([
      ['192.0.2.1', 2, ['6379', '6380']],
      ['192.0.2.2', 1, ['6379']],
    ])
  })

  it('bulkServices() yields typed events; nothing matching (204) ends at once', async () => {
    const ports = []
    for await (const e of client.bulkServices('+ip:192.0.2.0/24')) ports.push(e.port)
    expect(ports).toEqual(['80', '22'])
    let count = 0
    for await (const _ of client.bulkServices('port:1')) count++
    expect(count).toBe(0)
    for await (const _ of client.bulkServices('port:443')) count++
    expect(count).toBe(300)
  })

  it('throws kind http for a plan without the export (403) and for a bad query (400)', async () => {
    const registered = new LookupClient({ baseUrl: service.url, apiKey: KEYS.registered, rate: 'auto' })
    await expect(registered.bulkSearch('*').next()).rejects.toMatchObject({ kind: 'http', status: 403 })
    const error = await client.bulkServices('colour:red').next().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ClientError)
    expect((error as ClientError).message).toMatch(/400 Bad Request: bad query at position 1 \(`colour`\)/)
  })
})

describe('client: JSON Lines reading', () => {
  const response = { path: '/bulk/service' } as RawResponse
  const streamOf = (chunks: Uint8Array[]) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const c of chunks) controller.enqueue(c)
        controller.close()
      },
    })
  const read = async (chunks: Uint8Array[]) => {
    const out: unknown[] = []
    for await (const doc of jsonLines(response, streamOf(chunks), undefined)) out.push(doc)
    return out
  }

  it('splits lines across chunks, multi-byte characters too, skips empty lines, takes a last line without newline', async () => {
    const bytes = Buffer.from('{"a":"é€😀"}\n\n{"b":2}\r\n{"c":3}')
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(await read([bytes.subarray(0, cut), bytes.subarray(cut)]), `cut at ${cut}`).toEqual([{ a: 'é€😀' }, { b: 2 }, { c: 3 }])
    }
  })

  it('says which line is not JSON, or not UTF-8', async () => {
    await expect(read([Buffer.from('{"a":1}\n{oops}\n')])).rejects.toMatchObject({ kind: 'bad_body', message: expect.stringMatching(/line 2 is not JSON/) })
    await expect(read([Buffer.from([0x7b, 0xff, 0x7d, 0x0a])])).rejects.toMatchObject({ kind: 'bad_body' })
  })
})
