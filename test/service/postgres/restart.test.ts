/**
 * Restart: 100 000 events loaded into a PostgreSQL store, the server stopped and started
 * again: every lookup answers byte for byte as before.
 */
import { createWriteStream, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it, vi } from 'vitest'
import { serializeEvent } from '../../../src/normalize/index.js'
import { makeEvent, request } from '../support.js'
import { fileTempDir } from '../../support/temp.js'
import { DATABASE_URL, describePostgres, dropSchemasAfterAll, freshSchema } from './database.js'
import { startServe, waitFor } from './processes.js'

vi.setConfig({ testTimeout: 300_000 })

const COUNT = 100_000
const schema = freshSchema()
dropSchemasAfterAll([schema])
const dir = fileTempDir('l9kit-pg-restart-')

/** Event i: 5 000 IPs (IPv4 and IPv6), names three levels under 200 domains, repeats with other times. */
function event(i: number) {
  const n = i % 90_000 // the last 10 000 re-observe earlier events at a later or earlier time
  return makeEvent({
    event_type: n % 4 === 0 ? 'leak' : 'service',
    event_fingerprint: (n * 2654435761).toString(16).padStart(64, '0').slice(-64),
    ip: n % 5 === 0 ? `2001:db8::${(n % 5000).toString(16)}` : `198.51.${(n % 5000) >> 8}.${n % 256}`,
    host: n % 7 === 0 ? '' : `h${n % 50}.s${n % 3}.d${n % 200}.test`,
    port: String(n % 65536),
    summary: `event ${n}${i !== n ? ' again' : ''}`,
    time: `2024-0${1 + (i % 9)}-1${i % 10}T00:00:0${i % 10}.${(i % 1000) + 1}Z`,
    leak: { ...makeEvent({}).leak, severity: ['critical', 'high', 'low'][n % 3]! },
  })
}

async function snapshot(url: string): Promise<string[]> {
  const paths: string[] = []
  for (let k = 0; k < 300; k++) {
    const n = (k * 7919) % 90_000
    paths.push(`/host/${n % 5 === 0 ? `2001:db8::${(n % 5000).toString(16)}` : `198.51.${(n % 5000) >> 8}.${n % 256}`}`)
  }
  for (let d = 0; d < 200; d += 4) paths.push(`/domain/d${d}.test`, `/domain/s1.d${d}.test`, `/api/subdomains/d${d}.test`)
  const answers: string[] = []
  for (const path of paths) {
    const answer = await request(url, path)
    expect(answer.status, path).toBe(200)
    answers.push(`${path} ${answer.text}`)
  }
  return answers
}

describePostgres('PostgreSQL store: restart', () => {
  it(`answers every lookup byte-identically after a restart (${COUNT} events)`, async () => {
    const file = join(dir, 'events.jsonl')
    const out = createWriteStream(file)
    for (let i = 0; i < COUNT; i++) if (!out.write(serializeEvent(event(i)) + '\n')) await new Promise<void>((r) => out.once('drain', () => r()))
    await new Promise<void>((r) => out.end(() => r()))
    const config = join(dir, 'config.json')
    writeFileSync(config, JSON.stringify({ plans: { anonymous: { rate: null, subdomains: null } } }))
    const args = ['--store', DATABASE_URL, '--schema', schema, '--config', config]

    const first = await startServe([...args, '--load', file])
    await waitFor(() => first.output().includes('loaded'), 60_000)
    expect(first.output()).toMatch(/90000 new, 10000 duplicates, 0 rejected/)
    const before = await snapshot(first.url)
    expect(await first.stop()).toBe(0)

    const second = await startServe(args)
    await waitFor(() => second.output().includes('events'), 60_000)
    expect(second.output()).toContain(': 90000 events')
    const after = await snapshot(second.url)
    expect(await second.stop()).toBe(0)
    expect(after).toEqual(before)
    // The sample is not trivially empty.
    expect(before.filter((a) => a.includes('"Services":[')).length).toBeGreaterThan(200)
  })
})
