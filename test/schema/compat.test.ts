/**
 * The breaking-change guard: the schema documents generated now, against the released copies in
 * schema/released/, under the version policy of docs/versioning.md. And proof that the guard can
 * fail: a copy with one change of each breaking kind is refused unless the major version rises.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { breakingChanges, type DocumentPair, versionProblems } from '../../scripts/schema-compat.js'
import {
  DOCUMENT_NAMES,
  DOCUMENT_SPECS,
  type JsonSchema,
  matchesPrintableOnly,
  NOT_PRINTABLE,
  SCHEMA_VERSION,
  schemaDocument,
} from '../../src/schema/index.js'

const released = new URL('../../schema/released/', import.meta.url)
const readReleased = (file: string) => JSON.parse(readFileSync(new URL(file, released), 'utf8')) as JsonSchema
const releasedVersion = readFileSync(new URL('VERSION', released), 'utf8').trim()

/** Released and current documents, the current ones from the TypeBox definitions. */
function pairs(change?: (name: string, doc: any) => void): DocumentPair[] {
  const releasedFiles = readdirSync(released).filter((n) => n.endsWith('.schema.json'))
  const out: DocumentPair[] = DOCUMENT_NAMES.map((name) => {
    const file = DOCUMENT_SPECS[name].file
    const current = structuredClone(schemaDocument(name))
    change?.(name, current)
    return { file, released: releasedFiles.includes(file) ? readReleased(file) : undefined, current }
  })
  for (const file of releasedFiles) if (!out.some((p) => p.file === file)) out.push({ file, released: readReleased(file), current: undefined })
  return out
}

/** The breaking changes less 2.0.0's own (the base64 pattern of `service.credentials.raw`, docs/versioning.md). */
const since2 = (changes: string[]) => changes.filter((c) => !/\$defs\/credentials\/properties\/raw\/anyOf\/0: (pattern|not) (changed|added)/.test(c))

const nextMajor = (v: string) => `${Number(v.split('.')[0]) + 1}.0.0`
const nextMinor = (v: string) => `${v.split('.')[0]}.${Number(v.split('.')[1]) + 1}.0`

describe('schema versions', () => {
  it('schema/VERSION is the version the definitions carry, and every $id names it', () => {
    expect(readFileSync(new URL('../../schema/VERSION', import.meta.url), 'utf8').trim()).toBe(SCHEMA_VERSION)
    for (const name of DOCUMENT_NAMES) expect(schemaDocument(name).$id).toBe(`https://l9kit.dev/schema/${SCHEMA_VERSION}/${DOCUMENT_SPECS[name].file}`)
  })

  it('the current schema keeps every promise of the released one (or raises the version as the policy asks)', () => {
    expect(versionProblems(releasedVersion, SCHEMA_VERSION, pairs())).toEqual([])
  })
})

describe('the guard fails on each kind of breaking change', () => {
  const cases: [string, (doc: any) => void, RegExp][] = [
    ['a removed member', (doc) => delete doc.properties.port, /properties\/port: member removed/],
    ['a removed member of a part', (doc) => delete doc.$defs.http.properties.title, /\$defs\/http\/properties\/title: member removed/],
    ['a narrowed type', (doc) => (doc.$defs.location.properties.lat.type = 'integer'), /lat: type narrowed, number no longer allowed/],
    ['a new required member', (doc) => { doc.properties.extra = { type: 'string' }; doc.required.push('extra') }, /new required member extra/],
    ['a tighter pattern', (doc) => (doc.properties.port.pattern = '^[0-9]+$'), /port: pattern changed/],
    ['a lowered maximum', (doc) => (doc.$defs.http.properties.status.maximum = 599), /status: maximum lowered to 599 from 999/],
    ['unknown members refused', (doc) => (doc.additionalProperties = false), /additionalProperties now false/],
    ['a new `not`', (doc) => (doc.properties.ip.not = { pattern: ':' }), /ip: not added/],
  ]

  it.each(cases)('%s', (_label, change, message) => {
    const changed = pairs((name, doc) => name === 'event' && change(doc))
    const problems = versionProblems(releasedVersion, releasedVersion, changed)
    expect(problems.join('\n')).toMatch(message)
    expect(problems.at(-1)).toMatch(/need a new major version/)
    // A raised minor version is not enough; a raised major version is.
    expect(versionProblems(releasedVersion, nextMinor(releasedVersion), changed)).not.toEqual([])
    expect(versionProblems(releasedVersion, nextMajor(releasedVersion), changed)).toEqual([])
  })

  it('reports a lenient alternative that is gone', () => {
    const old = readReleased('event.lenient.schema.json') as any
    const now = structuredClone(old)
    now.properties.port.anyOf = [now.properties.port.anyOf[0]]
    expect(breakingChanges(old, now).join('\n')).toMatch(/#\/properties\/port/)
  })
})

describe('changes that break nothing', () => {
  const addOptional = (name: string, doc: any) => {
    if (name === 'event') doc.properties.new_member = { type: 'string', title: 'New', description: 'An added optional member.' }
  }

  it('an added optional member is not breaking but needs a raised version', () => {
    expect(since2(breakingChanges(readReleased('event.schema.json'), (() => { const d = structuredClone(schemaDocument('event')) as any; addOptional('event', d); return d })()))).toEqual([])
    expect(versionProblems(releasedVersion, SCHEMA_VERSION, pairs(addOptional))).toEqual([])
  })

  it('the protocol objects (schema 1.1.0) break nothing of 1.0.x; making one of them required would', () => {
    // Every released document against its current form: only additions, and (2.0.0) the base64 pattern of credentials.raw.
    for (const { file, released, current } of pairs()) if (released && current) expect(since2(breakingChanges(released, current)), file).toEqual([])
    const requiredRedis = (name: string, doc: any) => {
      if (name === 'event') doc.required.push('redis')
      if (name === 'event') doc.$defs.redis.required = ['auth_required']
    }
    const problems = versionProblems(releasedVersion, nextMinor(releasedVersion), pairs(requiredRedis)).join('\n')
    expect(problems).toMatch(/new required member redis/)
    expect(problems).toMatch(/need a new major version/)
  })

  it('a loosened rule and a changed description need nothing', () => {
    const loosen = (name: string, doc: any) => {
      if (name !== 'event') return
      doc.$defs.http.properties.status.maximum = 1000
      doc.properties.ip.description = 'Reworded.'
    }
    expect(since2(breakingChanges(readReleased('event.schema.json'), pairs(loosen).find((p) => p.file === 'event.schema.json')!.current!))).toEqual([])
  })

  it('a pattern that writes `[0-9]` for `\\d` is the same pattern', () => {
    const old = { type: 'object', properties: { rate: { type: 'string', pattern: '^\\d+(?:\\.\\d+)?/s$' } } }
    const now = { type: 'object', properties: { rate: { type: 'string', pattern: '^[0-9]+(?:\\.[0-9]+)?/s$' } } }
    expect(breakingChanges(old, now)).toEqual([])
    expect(breakingChanges(old, { type: 'object', properties: { rate: { type: 'string', pattern: '^[0-8]+(?:\\.[0-9]+)?/s$' } } })).not.toEqual([])
    // An escaped backslash before `d` is a backslash and a letter, not a digit class.
    expect(breakingChanges({ pattern: '^\\\\d$' }, { pattern: '^\\\\[0-9]$' })).not.toEqual([])
  })

  it('the printable-ASCII guard beside a printable-only pattern changes nothing; beside another pattern it may', () => {
    const node = (pattern: string, guard: boolean) => ({ type: 'string', pattern, ...(guard ? { not: { pattern: NOT_PRINTABLE } } : {}) })
    expect(breakingChanges(node('^[0-9a-f]*$', false), node('^[0-9a-f]*$', true))).toEqual([])
    expect(breakingChanges(node('^a.c$', false), node('^a.c$', true))).toEqual([expect.stringMatching(/not added/)])
    expect(breakingChanges(node('^[^x]*$', false), node('^[^x]*$', true))).toEqual([expect.stringMatching(/not added/)])
  })

  it('every pattern of the schema documents only matches printable ASCII, and carries the guard', () => {
    const found: JsonSchema[] = []
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(walk)
      if (typeof node !== 'object' || node === null) return
      if (typeof (node as JsonSchema).pattern === 'string') found.push(node as JsonSchema)
      Object.values(node).forEach(walk)
    }
    for (const name of DOCUMENT_NAMES) walk(schemaDocument(name))
    const patterns = found.filter((n) => n !== undefined && !(Object.keys(n).length === 1 && n.pattern === NOT_PRINTABLE))
    expect(patterns.length).toBeGreaterThan(10)
    for (const node of patterns) {
      expect(matchesPrintableOnly(String(node.pattern)), String(node.pattern)).toBe(true)
      expect(node.not, String(node.pattern)).toEqual({ pattern: NOT_PRINTABLE })
    }
    expect(matchesPrintableOnly('^[0-9]+\\.x$')).toBe(true)
    for (const loose of ['^a.c$', '^[^a]$', '^\\s$', '^\\D$', '^\\u00e9$', '^é$']) expect(matchesPrintableOnly(loose), loose).toBe(false)
  })

  it('refuses a version lower than the released one', () => {
    expect(versionProblems('1.2.0', '1.1.9', pairs())).toEqual([expect.stringMatching(/lower than the released/)])
  })
})
