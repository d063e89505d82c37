/**
 * The bulk export's aggregation lines, byte for byte, against a committed file
 * (golden/export.jsonl): lines.test.ts holds the lines equal to JSON.stringify(aggregate()), but
 * both share summarize() and time/ (order, counts, dates), so a change there would move both
 * together. These events cover what the line writer and the counts read: resources of one event
 * and of many, an address spelled otherwise, resources known by host name only, plugin names and
 * hosts that JSON escapes or that are not ASCII, numbered ports, equal times, fractions of every
 * length, a place (geoip, network) on some events only, several sightings of one event.
 * `UPDATE_GOLDEN=1` rewrites the files from the current output: review the diff before keeping it.
 */
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseQuery } from '../../../src/query/index.js'
import { emptyEvent, type Event } from '../../../src/schema/index.js'
import { ExportThread, exportLines } from '../../../src/service/aggregate/export-thread.js'
import { LineChunk } from '../../../src/service/aggregate/pieces.js'
import { MemoryStore } from '../../../src/service/index.js'
import { parseTime } from '../../../src/time/index.js'

const GOLDEN = new URL('./golden/export.jsonl', import.meta.url)
/** The SHA-256 of the larger export's text (too large a file to commit as it is). */
const GOLDEN_MANY = new URL('./golden/export-many.sha256', import.meta.url)
const NOW = (() => {
  const t = parseTime('2024-03-01T00:00:00Z')
  if (!t.ok) throw new Error(t.reason)
  return t.value
})()

const IPS = ['192.0.2.1', '192.0.2.1', '2001:DB8:0::1', '::ffff:192.0.2.1', '', '198.51.100.20', '2001:db8::1', '', '192.0.2.', '2001:DB8::A:']
const HOSTS = ['', 'WWW.Example.com.', 'api.example.com', 'büro.example', '192.0.2.9', 'a.example.com', 'B.example.com.', '']
const SOURCES = ['ElasticSearchOpenPlugin', 'GitConfigHttpPlugin', 'plugin "quoted" \\ é', 'DotEnvConfigPlugin', '']
const PORTS = ['9200', '80', '10000', '443', '8080', '']
const TIMES = ['2024-01-05T10:00:00Z', '2024-01-05T10:00:00.5Z', '2024-01-05T10:00:00.123456789Z', '2024-02-20T00:00:00.05Z', '2023-12-31T23:59:59.999Z']

/** The i-th event: every choice cycles at its own pace, so the combinations vary. */
function eventAt(i: number): Event {
  const e = emptyEvent()
  e.event_type = i % 7 === 6 ? 'service' : 'leak'
  e.event_source = SOURCES[i % SOURCES.length]!
  e.event_fingerprint = (i % 11).toString(16).repeat(64)
  // The last two are completed by the event's number: many resources of one event or a few.
  e.ip = IPS[i % IPS.length]!
  if (e.ip.endsWith('.')) e.ip += String(i % 23)
  else if (e.ip.endsWith(':')) e.ip += (i % 17).toString(16).toUpperCase()
  e.host = HOSTS[(i >> 1) % HOSTS.length]!
  e.port = PORTS[i % PORTS.length]!
  e.time = TIMES[(i * 3) % TIMES.length]!
  e.summary = i % 4 === 0 ? `line ${i}\r\n"quoted" é 東京 \u0001` : `event ${i}`
  if (i % 3 === 0) e.geoip = { ...e.geoip, country_iso_code: 'FR', city_name: `Paris ${i}`, location: { lat: 48.8566, lon: 2.3522 } }
  if (i % 5 === 1) e.network = { organization_name: `Org ${i}`, asn: 64500 + i, network: '192.0.2.0/24' }
  if (i % 4 === 0) e.leak = { ...e.leak, stage: 'open', type: 'open_database', severity: 'high' }
  return e
}

/** The events, and a second sighting of a few of them (their first and last seen differ). */
async function exported(thread: () => ExportThread | undefined, times = 1): Promise<string> {
  const store = new MemoryStore()
  const events = Array.from({ length: 120 }, (_, i) => eventAt(i))
  for (let t = 0; t < times; t++) {
    const r = await store.ingest(events.map((e, i) => (t === 0 ? e : { ...e, ip: e.ip === '' ? '' : `10.${t}.${i >> 8}.${i & 255}` })))
    expect(r.rejected).toEqual([])
  }
  await store.ingest(events.filter((_, i) => i % 9 === 0).map((e) => ({ ...e, time: '2024-02-25T12:00:00.25Z' })))
  let out = ''
  for await (const value of exportLines(store.searchByResource(parseQuery('*', { scope: 'leak' })), NOW, thread)) {
    if (value instanceof LineChunk) {
      out += Buffer.from(value.bytes).toString('utf8')
      value.written?.()
    } else out += value.map((p) => (typeof p === 'string' ? p : Buffer.from(p).toString('utf8'))).join('') + '\n'
  }
  return out
}

describe('bulk export lines, byte for byte', () => {
  it('are the committed golden file', async () => {
    const text = await exported(() => undefined)
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(GOLDEN, text)
    expect(text.split('\n').length).toBeGreaterThan(10)
    expect(text).toBe(readFileSync(GOLDEN, 'utf8'))
  })

  it('are the same when made on the export thread (more than one batch)', async () => {
    const thread = new ExportThread(new URL('../../../src/service/aggregate/export-worker.ts', import.meta.url))
    try {
      // Ten copies of the events on other addresses: more than a batch, so the thread makes them.
      const many = await exported(() => thread, 10)
      const digest = createHash('sha256').update(many).digest('hex')
      if (process.env.UPDATE_GOLDEN === '1') writeFileSync(GOLDEN_MANY, `${digest}\n`)
      expect(many).toBe(await exported(() => undefined, 10))
      expect(`${digest}\n`).toBe(readFileSync(GOLDEN_MANY, 'utf8'))
    } finally {
      await thread.thread.terminate()
    }
  })
})
