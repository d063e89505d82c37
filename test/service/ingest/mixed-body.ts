/** A large JSON Lines body mixing every kind of line, for the large-ingest tests (memory and PostgreSQL stores). */
import { ingestText, type IngestedEvent, type IngestReport, type Store } from '../../../src/service/index.js'
import type { PrepareWorkerKind } from '../../../src/service/ingest/worker-priority.js'
import { expect } from 'vitest'
import { makeEvent } from '../support.js'

export const ipOf = (i: number) => `198.18.${(i >> 8) & 255}.${i & 255}`
/** About 3 MiB of JSON Lines mixing every kind of line, with trouble before and after the first MiB. */
export function mixedBody(): { body: Buffer; ips: string[] } {
  const parts: Buffer[] = []
  const ips: string[] = []
  const line = (text: string | Buffer) => parts.push(Buffer.isBuffer(text) ? text : Buffer.from(text), Buffer.from('\n'))
  for (let i = 0; i < 6000; i++) {
    const ip = ipOf(i)
    ips.push(ip)
    const event = makeEvent({ ip, host: `h${i}.example.com`, summary: 'x'.repeat(300) })
    switch (i % 50) {
      case 7: // lenient: normalised on the way in
        line(JSON.stringify({ ...event, port: 443, time: '2024-01-01T00:00:00+02:00' }))
        break
      case 11:
        line('{"ip": "198.18.0.1", broken')
        break
      case 13: // strictly invalid
        line(JSON.stringify({ ...event, event_type: 'synack' }))
        break
      case 17: // an exact duplicate of the previous line, then an older and a newer observation
        line(JSON.stringify({ ...makeEvent({ ip: ipOf(i - 1), host: `h${i - 1}.example.com`, summary: 'x'.repeat(300) }), event_fingerprint: 'f'.repeat(64) }))
        line(JSON.stringify({ ...makeEvent({ ip: ipOf(i - 1), host: `h${i - 1}.example.com`, summary: 'older' }), event_fingerprint: 'f'.repeat(64), time: '2023-01-01T00:00:00Z' }))
        line(JSON.stringify({ ...makeEvent({ ip: ipOf(i - 1), host: `h${i - 1}.example.com`, summary: 'newer' }), event_fingerprint: 'f'.repeat(64), time: '2025-01-01T00:00:00Z' }))
        break
      case 19: // an array line: one document per element
        line(JSON.stringify([event, { ...event, port: '8080' }]))
        break
      case 23:
        line('')
        break
      case 29: // invalid UTF-8
        line(Buffer.concat([Buffer.from('{"ip":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]))
        break
      case 31:
        line('{'.repeat(5000) + '}'.repeat(5000))
        break
      case 37: { // a canonical event with an invalid byte in its summary: stored as decoded
        const bytes = Buffer.from(JSON.stringify({ ...event, event_fingerprint: 'e'.repeat(64) }))
        bytes[bytes.indexOf('xxx')] = 0xff
        line(bytes)
        break
      }
      case 41: // CRLF, and text beyond ASCII
        line(`${JSON.stringify({ ...event, summary: 'Île-de-France ✓ 😀', event_fingerprint: 'd'.repeat(64) })}\r`)
        break
      default:
        line(JSON.stringify(event))
    }
  }
  return { body: Buffer.concat(parts), ips }
}


/**
 * Ingests `body` into `store` through the prepare workers (`workers`: true for the default
 * kind, or which kind) or on this thread only (its ingestPrepared hidden), counting the
 * documents that went through ingestPrepared and recording what listeners hear.
 */
export async function ingestWatched(store: Store, body: Buffer, workers: boolean | PrepareWorkerKind): Promise<{ report: IngestReport; heard: { json: string; duplicate: boolean; summary: string }[]; prepared: number }> {
  let prepared = 0
  if (workers) {
    const ingestPrepared = store.ingestPrepared!.bind(store)
    store.ingestPrepared = (items) => ((prepared += items.length), ingestPrepared(items))
  } else Object.defineProperty(store, 'ingestPrepared', { value: undefined }) // the in-thread path
  const heard: { json: string; duplicate: boolean; summary: string }[] = []
  store.onIngest((e: IngestedEvent) => heard.push({ json: e.json, duplicate: e.duplicate, summary: e.event.summary }))
  const report = await ingestText(store, body, typeof workers === 'string' ? { workerKind: workers } : {})
  return { report, heard, prepared }
}

interface Outcome {
  report: IngestReport
  heard: unknown[]
  stored: string[][]
  size: number
  prepared: number
}

/** The worker path did its share and came to the very outcome of the in-thread path. */
export function expectSameOutcome(inThread: Outcome, offloaded: Outcome): void {
  expect(offloaded.prepared).toBeGreaterThan(3000) // most of the body went through the workers
  expect(inThread.prepared).toBe(0)
  expect(offloaded.report).toEqual(inThread.report)
  expect(offloaded.heard).toEqual(inThread.heard)
  expect(offloaded.stored).toEqual(inThread.stored)
  expect(offloaded.size).toBe(inThread.size)
  expect(inThread.report.duplicates).toBeGreaterThan(200)
}
