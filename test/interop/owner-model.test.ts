/**
 * The format owner's own model (`l9format` 2.0.1, ../shared/peers/l9format-python, unchanged),
 * run by Debian's /usr/bin/python3: every document we have (corpus/valid, every event of the
 * converters' golden files, generated events with protocol objects) loads into its L9Event and
 * dumps back to the same protocol objects, member for member and in the same order, with absent
 * members left out and `None` never written; and every event and aggregation line `l9kit serve`
 * answers (search pages, /bulk/service, /bulk/search, on both stores) loads into L9Event and
 * L9Aggregation. (Its loader checks lists, objects and times, not scalar types: the invalid
 * corpus is not put to it.)
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { lenientEvent, strictEvent } from '../../src/conformance/arbitraries.js'
import { normalize } from '../../src/normalize/index.js'
import { PROTOCOL_NAMES, PROTOCOLS, SSH_EXTENSION } from '../../src/schema/index.js'
import { documentNames, readJson, ROOT, VALID_DIR } from '../corpus/files.js'
import { run } from '../languages/support.js'
import { jsonl } from '../service/support.js'
import { fileTempDir } from '../support/temp.js'
import { fixtureEvents } from './peers/fixture.js'
import { needsPeers, PYTHON, pythonEnv, pythonTools } from './peers/peers.js'
import { KEYS, serve, type Service, stores } from './peers/service.js'
import type { Event } from '../../src/schema/index.js'

const READER = join(ROOT, 'test', 'interop', 'peers', 'owner_read.py')
const TOOLS = join(ROOT, 'corpus', 'tools')
const dir = fileTempDir('l9kit-peers-owner-')
let env: NodeJS.ProcessEnv = process.env

/** Each line through the model: its dump, parsed, or its `error: …` text. */
async function throughModel(docs: unknown[], model: 'event' | 'aggregation' = 'event'): Promise<unknown[]> {
  const result = await run(PYTHON, [READER, model], { input: docs.map((d) => (typeof d === 'string' ? d : JSON.stringify(d))).join('\n') + '\n', env })
  expect(result.stderr).toBe('')
  expect(result.code).toBe(0)
  const lines = result.stdout.split('\n').slice(0, -1)
  expect(lines).toHaveLength(docs.length)
  return lines.map((line) => (line.startsWith('error: ') ? line : JSON.parse(line)))
}

/** Every event the converters' golden files hold. */
function converterEvents(): unknown[] {
  const out: unknown[] = []
  for (const tool of readdirSync(TOOLS)) {
    for (const file of readdirSync(join(TOOLS, tool)).filter((f) => f.endsWith('.expected.jsonl'))) {
      for (const line of readFileSync(join(TOOLS, tool, file), 'utf8').split('\n')) if (line.trim() !== '') out.push(JSON.parse(line))
    }
  }
  return out
}

/** Generated events: strict ones with protocol objects, and lenient ones as normalise makes them. */
function generatedEvents(): unknown[] {
  const strict = fc.sample(strictEvent({ protocols: 'always' }), { numRuns: 300, seed: 1_4_0 })
  const lenient = fc.sample(lenientEvent({ protocols: 'always' }), { numRuns: 200, seed: 2026 }).map((doc) => {
    const result = normalize(doc)
    if (!result.ok) throw new Error(`a lenient event did not normalise: ${JSON.stringify(result.errors)}`)
    return result.event
  })
  return [...strict, ...lenient]
}

/** The protocol part of an event as text: each protocol object and `ssh`, members in their order. */
const protocolPart = (doc: Record<string, unknown>) => JSON.stringify([doc.ssh, ...PROTOCOL_NAMES.map((name) => (name in doc ? doc[name] : '(absent)'))])

const hasNull = (value: unknown): boolean =>
  value === null || (typeof value === 'object' && Object.values(value as object).some(hasNull))

needsPeers("the format owner's model (l9format-python): load and dump", ['l9format-python', 'LeakIXClient-Python'], pythonTools, (peers) => {
  env = pythonEnv(peers, dir)
  const sets = {
    'corpus/valid': () => documentNames(VALID_DIR).map((name) => readJson(VALID_DIR, name)),
    "the converters' golden events (corpus/tools)": converterEvents,
    'generated events with protocol objects': generatedEvents,
  }

  it.each(Object.keys(sets))('%s: load, and dump back the same protocol objects member for member', async (set) => {
    const docs = sets[set as keyof typeof sets]() as Record<string, unknown>[]
    expect(docs.length).toBeGreaterThan(10)
    const all = (await throughModel(docs)) as (Record<string, unknown> | string)[]
    // The owner's Software declares `fingerprint: str = ""`, so its loader requires the member the
    // format lets a document leave out (docs/format.md): refused there, and only those; what we
    // write (normalize, the service) always has it, and loads.
    const noSoftwareFingerprint = (doc: any) => !('fingerprint' in (doc.service?.software ?? {}))
    expect(all.map((d, i) => (typeof d === 'string' ? [i, d] : null)).filter((x) => x !== null)).toEqual(
      docs.flatMap((doc, i) => (noSoftwareFingerprint(doc) ? [[i, 'error: ValidationError: missing required field: fingerprint']] : [])),
    )
    const normalized = docs.filter(noSoftwareFingerprint).map((doc) => (normalize(doc) as { event: unknown }).event)
    expect((await throughModel(normalized)).filter((d) => typeof d === 'string')).toEqual([])
    const kept = docs.filter((_, i) => typeof all[i] !== 'string')
    const dumped = all.filter((d) => typeof d !== 'string') as Record<string, unknown>[]
    const different = kept.filter((doc, i) => protocolPart(doc) !== protocolPart(dumped[i]!))
    expect(different.map((doc) => protocolPart(doc))).toEqual([])
    // Absent members are left out, never written as null.
    for (const dump of dumped) for (const name of PROTOCOL_NAMES) if (name in dump) expect(hasNull(dump[name])).toBe(false)
  }, 180_000)

  it('the generated set does exercise every object and every member', async () => {
    const docs = generatedEvents() as Record<string, any>[]
    for (const [name, part] of Object.entries(PROTOCOLS)) {
      expect(docs.filter((d) => name in d).length, name).toBeGreaterThan(20)
      for (const member of Object.keys(part.properties)) expect(docs.filter((d) => member in (d[name] ?? {})).length, `${name}.${member}`).toBeGreaterThan(5)
    }
    for (const member of Object.keys(SSH_EXTENSION)) expect(docs.filter((d) => member in d.ssh).length, `ssh.${member}`).toBeGreaterThan(5)
  })

  describe.each(stores())('every event and aggregation line l9kit serve answers (%s store)', (_name, storeArgs) => {
    let service: Service
    const served = [...fixtureEvents(), ...(generatedEvents().slice(0, 120) as Event[]).filter((e) => e.event_type === 'service' || e.event_type === 'leak')]
    beforeAll(async () => (service = await serve(dir, storeArgs(), jsonl(served), 50)), 120_000)
    afterAll(() => service?.stop())

    it('search pages, /bulk/service and /bulk/search: every line loads', async () => {
      const get = async (path: string) => {
        const res = await fetch(`${service.url}${path}`, { headers: { 'api-key': KEYS.pro, accept: 'application/json' } })
        expect(res.status, path).toBe(200)
        return res.text()
      }
      const events: string[] = []
      for (const scope of ['service', 'leak']) {
        for (let page = 0; ; page++) {
          const items = JSON.parse(await get(`/search?scope=${scope}&q=*&page=${page}`)) as unknown[]
          if (items.length === 0) break
          events.push(...items.map((e) => JSON.stringify(e)))
        }
      }
      const bulkService = (await get('/bulk/service?q=*')).split('\n').filter((l) => l !== '')
      const aggregations = (await get('/bulk/search?q=*')).split('\n').filter((l) => l !== '')
      expect(events.length).toBeGreaterThan(50)
      expect(aggregations.length).toBeGreaterThan(5)
      for (const [lines, model] of [[events, 'event'], [bulkService, 'event'], [aggregations, 'aggregation']] as const) {
        const read = await throughModel([...lines], model)
        expect(read.filter((r) => typeof r === 'string'), model).toEqual([])
        expect(read).toHaveLength(lines.length)
      }
    }, 120_000)
  })
})
