/**
 * filter's short way for canonical lines (src/cli/commands/filter-canonical.ts): whenever it
 * gives a verdict on a line, the long way (parse, normalise with `fingerprint: 'missing'`,
 * evaluate the whole document: filter-record.ts) gives the same one; on generated queries over
 * every field (protocol members, headers, the fingerprint, scopes, negations, groups, ranges,
 * patterns) and on lines canonical, lenient, broken and adversarial (escaped member names and
 * values, `\/`, spaces, duplicate members, numbers for strings, changed case). And it does give
 * verdicts, both ways, on canonical lines, so the short way is really taken.
 */
import fc, { type Arbitrary } from 'fast-check'
import { describe, expect, it } from 'vitest'
import { canonicalJudge, type CanonicalJudge } from '../../../src/cli/commands/filter-canonical.js'
import { filterDocuments } from '../../../src/cli/commands/filter-record.js'
import { lenientEvent, nearValidEvent, queryFor, strictEvent } from '../../../src/conformance/arbitraries.js'
import { fromLine } from '../../../src/jsonl/index.js'
import { isCanonicalText, normalize, resolveOptions, serializeEvent } from '../../../src/normalize/index.js'
import { FIELDS, membersRead, parseQuery, type Query, type Scope } from '../../../src/query/index.js'
import { quote } from '../../../src/query/print.js'
import type { Event } from '../../../src/schema/index.js'
import { lenientDocument } from '../../normalize/arbitraries.js'

const KEEP = resolveOptions({ fingerprint: 'keep' })

/** The long way's verdict on one line: true, false, or 'issues' (not read or not normalised). */
function longWay(text: string, query: Query): boolean | 'issues' | 'several' {
  const judged = filterDocuments(fromLine({ line: 1, offset: 0, text }), query)
  if (judged.length !== 1) return 'several'
  const { verdict } = judged[0]!
  return typeof verdict === 'boolean' ? verdict : 'issues'
}

/** Judges are built once per query (each compiles the event's pattern). */
const judges = new Map<string, { query: Query; judge: CanonicalJudge }>()
function judgeOf(text: string, scope: Scope) {
  const key = `${scope}\n${text}`
  let j = judges.get(key)
  if (j === undefined) {
    const query = parseQuery(text, { scope })
    judges.set(key, (j = { query, judge: canonicalJudge(query) }))
  }
  return j
}

/** The canonical text of a document, when it can be normalised (the fingerprint kept as it is, empty included). */
function canonical(doc: unknown): string | undefined {
  const r = normalize(doc, { fingerprint: 'keep' })
  return r.ok ? serializeEvent(r.event) : undefined
}

const documents: Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: strictEvent() },
  { weight: 2, arbitrary: strictEvent({ protocols: 'always' }) },
  // An address as the host, and no ip: the event's address is its host's (query/address.ts).
  { weight: 1, arbitrary: strictEvent({ ip: fc.constantFrom('', '192.0.2.7'), host: fc.constantFrom('192.0.2.7', '2001:db8::7', 'WWW.Example.com.', '') }) },
  { weight: 2, arbitrary: lenientEvent() },
  { weight: 1, arbitrary: lenientDocument },
  { weight: 1, arbitrary: nearValidEvent().map((n) => n.doc) },
)

/** Ways to make canonical text not canonical, or not JSON, while keeping most of it. */
const MUTATIONS: ((text: string, at: number) => string)[] = [
  // a character as a \u escape: in a value the same string, in a member name the same member, elsewhere not JSON
  (t, at) => {
    const i = nextWhere(t, at, (c) => /[A-Za-z0-9]/.test(c))
    return i === -1 ? t : `${t.slice(0, i)}\\u${t.charCodeAt(i).toString(16).padStart(4, '0')}${t.slice(i + 1)}`
  },
  (t, at) => spliceAt(t, nextWhere(t, at, (c) => c === '/'), '\\/', 1),
  (t, at) => spliceAt(t, nextWhere(t, at, (c) => c === ':' || c === ','), (c) => `${c} `, 1),
  (t, at) => spliceAt(t, nextWhere(t, at, (c) => /[a-z]/.test(c)), (c) => c.toUpperCase(), 1),
  (t, at) => spliceAt(t, nextWhere(t, at, (c) => /[A-Z]/.test(c)), (c) => c.toLowerCase(), 1),
  // a member again at the start (JSON.parse keeps the last one; canonical text never has two)
  (t, at) => `{${['"port":"1",', '"host":"EXAMPLE.com",', '"ip":"10.0.0.1",', '"event_type":"leak",', '"redis":{"version":"x"},'][at % 5]}${t.slice(1)}`,
  (t) => t.replace(/"port":"(\d+)"/, '"port":$1'),
  (t) => t.replace(/"status":(\d+)/, '"status":"$1"'),
  (t) => t.replace(/"event_fingerprint":"[0-9a-f]*"/, '"event_fingerprint":""'),
  (t) => t.replace(/"event_fingerprint":"([0-9a-f]+)"/, (_m, f: string) => `"event_fingerprint":"${f.toUpperCase()}"`),
  (t, at) => t.slice(0, at % (t.length + 1)),
  (t) => `${t} `,
  (t) => `[${t}]`,
]

function nextWhere(t: string, from: number, ok: (c: string) => boolean): number {
  for (let k = 0; k < t.length; k++) {
    const i = (from + k) % t.length
    if (ok(t[i]!)) return i
  }
  return -1
}

function spliceAt(t: string, i: number, by: string | ((c: string) => string), n: number): string {
  if (i === -1) return t
  return t.slice(0, i) + (typeof by === 'string' ? by : by(t.slice(i, i + n))) + t.slice(i + n)
}

/** The first value at a field's path ('[]' takes an element), for terms that use an event's own values. */
function valueAt(doc: unknown, path: readonly string[]): unknown {
  let node = doc
  for (const step of path) {
    if (step === '[]') node = Array.isArray(node) ? node[0] : undefined
    else node = typeof node === 'object' && node !== null && !Array.isArray(node) ? (node as Record<string, unknown>)[step] : undefined
  }
  return node
}

/** A term on any field of the table (protocol members and leak fields too), often with the event's own value. */
function fieldTerm(doc: Record<string, unknown>): Arbitrary<string> {
  return fc.tuple(fc.constantFrom(...FIELDS), fc.nat(9), fc.constantFrom('', '', '-', '+')).map(([field, how, sign]) => {
    const v = valueAt(doc, field.path)
    const own = v === undefined || v === null || typeof v === 'object' ? '' : String(v)
    const header = Object.keys((valueAt(doc, ['http', 'header']) as object | undefined) ?? {})[0]
    const name = field.type === 'map' && header !== undefined && how % 2 === 0 && /^[a-z0-9-]+$/.test(header) ? `${field.name}.${header}` : field.name
    const value = [
      '*',
      quote(own),
      quote(own.toUpperCase()),
      `>${own}`,
      `<=${own}`,
      `[${own} TO *]`,
      quote(own.split(/[^A-Za-z0-9]+/).find((w) => w !== '') ?? 'x'),
      `~${quote(`.*${own.slice(0, 3).replace(/[^A-Za-z0-9]/g, '')}.*`)}`,
      `=${quote(own)}`,
      '""',
    ][how]!
    return `${sign}${name}:${value}`
  })
}

const scopes = fc.constantFrom<Scope>('any', 'service', 'leak')

/** A query over the documents: the conformance generator's terms and terms on any field, some grouped, with OR and NOT. */
function queryOver(docs: unknown[], scope: Scope): Arbitrary<string> {
  const events = docs.filter((d): d is Record<string, unknown> => typeof d === 'object' && d !== null && !Array.isArray(d))
  const normalised = events.map((e) => normalize(e, { fingerprint: 'keep' })).flatMap((r) => (r.ok ? [r.event as Event] : []))
  const terms: Arbitrary<string>[] = [fc.constantFrom('*', 'OR', 'NOT', 'nginx', '"lorem ipsum"', 'ip:192.0.2.0/24', 'ip:"2001:db8::/32"', 'ip:*', 'host:example.com', 'domain:*', 'country:FR', 'l9fp:*', '-event_fingerprint:*', 'redis.version:*')]
  for (const e of events) terms.push(fieldTerm(e))
  if (normalised.length > 0) terms.push(queryFor(normalised, scope))
  const term = fc.oneof(...terms)
  const clause = fc.oneof(term, fc.tuple(fc.constantFrom('', '-', '+'), fc.array(term, { minLength: 1, maxLength: 3 })).map(([s, ts]) => `${s}(${ts.join(' ')})`))
  return fc.array(clause, { minLength: 1, maxLength: 4 }).map((cs) => cs.join(' '))
}

const valid = (text: string, scope: Scope) => {
  try {
    parseQuery(text, { scope })
    return true
  } catch {
    return false
  }
}

/** Lines from the documents: canonical text (most), the document as written, and canonical text mutated. */
const lines = (docs: unknown[]): Arbitrary<string[]> =>
  fc.tuple(
    ...docs.map((doc) =>
      fc.tuple(fc.nat(2 * MUTATIONS.length), fc.nat()).map(([kind, at]) => {
        const text = canonical(doc)
        if (text === undefined || kind === 0) return JSON.stringify(doc)
        return kind <= MUTATIONS.length ? MUTATIONS[kind - 1]!(text, at) : text
      }),
    ),
  )

const cases = fc
  .tuple(fc.array(documents, { minLength: 1, maxLength: 4 }), scopes)
  .chain(([docs, scope]) => fc.tuple(fc.constant(docs), fc.constant(scope), queryOver(docs, scope), lines(docs)))
  .filter(([, scope, query]) => valid(query, scope))

describe('filter, canonical lines', () => {
  it('gives a verdict only when the long way gives the same one, and gives verdicts on canonical lines', () => {
    const seen = { true: 0, false: 0, long: 0, canonicalDeclined: 0, canonical: 0 }
    fc.assert(
      fc.property(cases, ([, scope, text, texts]) => {
        const { query, judge } = judgeOf(text, scope)
        for (const line of texts) {
          const short = judge(line)
          if (short === undefined) seen.long++
          else {
            seen[`${short}`]++
            expect({ line, verdict: longWay(line, query) }).toEqual({ line, verdict: short })
          }
          if (isCanonicalText(line, KEEP)) {
            seen.canonical++
            // Canonical text is declined only for an empty fingerprint the query reads (computed the long way).
            if (short === undefined) {
              seen.canonicalDeclined++
              expect(membersRead(query)).toContain('event_fingerprint')
              expect(line).toContain('"event_fingerprint":""')
            }
          }
        }
      }),
      { numRuns: 400 },
    )
    // The short way is really taken, both ways, and the long way too.
    expect(seen.true).toBeGreaterThan(30)
    expect(seen.false).toBeGreaterThan(100)
    expect(seen.long).toBeGreaterThan(100)
    expect(seen.canonicalDeclined).toBeLessThan(seen.canonical / 4)
  }, 300_000)

  it('reads the members a query names, its scope the event type, an address the ip and host', () => {
    const reads = (text: string, scope: Scope = 'any') => membersRead(parseQuery(text, { scope })).sort()
    expect(reads('*')).toEqual([])
    expect(reads('port:443', 'service')).toEqual(['event_type', 'port'])
    expect(reads('ip:10.0.0.0/8 -country:FR')).toEqual(['geoip', 'host', 'ip'])
    expect(reads('nginx age:>1 redis.version:*')).toEqual(['http', 'redis', 'ssh', 'summary', 'time'])
  })

  it('an empty fingerprint the query reads takes the long way (filter computes it); one it does not read does not', () => {
    const r = normalize({ event_type: 'service', event_source: 'http', summary: 'hello', port: '80' }, { fingerprint: 'keep' })
    if (!r.ok) throw new Error('fixture')
    const text = serializeEvent(r.event)
    expect(text).toContain('"event_fingerprint":""')
    const { query, judge } = judgeOf('l9fp:*', 'any')
    expect(judge(text)).toBeUndefined()
    expect(longWay(text, query)).toBe(true)
    expect(judgeOf('port:80', 'any').judge(text)).toBe(true)
  })
})
