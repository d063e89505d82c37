/**
 * Facets: the most frequent values of a field among the events a query matches, with their
 * counts (GET /search/count?facet=…, docs/search.md "Counting and facets"). One row per facet:
 * its name, the query field a value narrows to (the web view's links, `l9kit count`), and how
 * its values are read from an event document. The stores count the same values (the memory
 * store from its columns where it has them, PostgreSQL from its columns or the stored JSON);
 * `facetValues()` is the oracle both are tested against, and what `l9kit count --slow` uses.
 */
import { canonicalDomain } from '../names/domain.js'
import { addressBytes, eventAddress } from './address.js'
import { countryOf } from './evaluate.js'
import { storable } from './text.js'

export interface Facet {
  /** The name a request uses: `port`, `country`, … */
  name: string
  /** The query field that a value narrows a search to (`+FIELD:value`), its short name where it has one. */
  field: string
  /** How a value is compared: `:` for a keyword (the whole value), `:=` for a name (the name alone) or a text (the whole text). */
  exact?: boolean
  /** Only in counts of leaks (a leak-only field). */
  leakOnly?: boolean
  /** `list`: an event may have several values (each counted once per event). */
  list?: boolean
  /** Ties of equal counts: by the value's code points (`text`), or by address (IPv4 first, then bytes). */
  order?: 'text' | 'address'
  /** An event's values: distinct, none empty (a zero number counts as none). */
  values(doc: Record<string, unknown>): string[]
}

/** Default and largest number of values shown per facet. */
export const DEFAULT_FACET_LIMIT = 10
export const MAX_FACET_LIMIT = 100
/** Most facets one request may ask for. */
export const MAX_FACETS = 8

const at = (doc: Record<string, unknown>, path: readonly string[]): unknown => {
  let node: unknown = doc
  for (const step of path) {
    if (typeof node !== 'object' || node === null || Array.isArray(node) || !Object.hasOwn(node, step)) return undefined
    node = (node as Record<string, unknown>)[step]
  }
  return node
}

/** A string member's value, storable (as PostgreSQL holds it); none when empty or not a string. */
const text = (path: string) => {
  const steps = path.split('.')
  return (doc: Record<string, unknown>): string[] => {
    const v = at(doc, steps)
    return typeof v === 'string' && v !== '' ? [storable(v)] : []
  }
}

/** An integer member's value as decimal text; none when 0 or not a number. */
const integer = (path: string) => {
  const steps = path.split('.')
  return (doc: Record<string, unknown>): string[] => {
    const v = at(doc, steps)
    return typeof v === 'number' && Number.isSafeInteger(v) && v !== 0 ? [String(v)] : []
  }
}

/** A list member's distinct non-empty strings. */
const strings = (path: string) => {
  const steps = path.split('.')
  return (doc: Record<string, unknown>): string[] => {
    const v = at(doc, steps)
    if (!Array.isArray(v)) return []
    return [...new Set(v.filter((x): x is string => typeof x === 'string' && x !== '').map(storable))]
  }
}

/** Every facet, in the order docs/search.md lists them. */
export const FACETS: readonly Facet[] = [
  { name: 'port', field: 'port', values: text('port') },
  { name: 'plugin', field: 'plugin', values: text('event_source') },
  { name: 'severity', field: 'severity', leakOnly: true, values: text('leak.severity') },
  {
    name: 'country',
    field: 'country',
    values: (doc) => {
      const geoip = at(doc, ['geoip'])
      const code = typeof geoip === 'object' && geoip !== null ? countryOf(geoip as Record<string, unknown>).code : ''
      return code === '' ? [] : [code]
    },
  },
  { name: 'asn', field: 'asn', values: integer('network.asn') },
  {
    name: 'ip',
    field: 'ip',
    order: 'address',
    values: (doc) => {
      const ip = eventAddress(doc.ip, doc.host)
      return ip === null ? [] : [ip]
    },
  },
  {
    name: 'host',
    field: 'host',
    exact: true,
    values: (doc) => {
      const name = typeof doc.host === 'string' && doc.host !== '' ? canonicalDomain(doc.host) : null
      return name === null ? [] : [name]
    },
  },
  { name: 'protocol', field: 'protocol', values: text('protocol') },
  { name: 'transport', field: 'transport', list: true, values: strings('transport') },
  { name: 'tags', field: 'tags', list: true, values: strings('tags') },
  { name: 'software', field: 'service.software.name', values: text('service.software.name') },
  { name: 'http.status', field: 'http.status', values: integer('http.status') },
  { name: 'ssl.version', field: 'ssl.version', values: text('ssl.version') },
  { name: 'org', field: 'network.organization_name', exact: true, values: text('network.organization_name') },
  { name: 'city', field: 'geoip.city_name', values: text('geoip.city_name') },
  { name: 'leak.type', field: 'leak.type', leakOnly: true, values: text('leak.type') },
  { name: 'leak.stage', field: 'leak.stage', leakOnly: true, values: text('leak.stage') },
]

const BY_NAME = new Map(FACETS.map((f) => [f.name, f]))

/** The facet of that name (names compare without case), or undefined. */
export const facetNamed = (name: string): Facet | undefined => BY_NAME.get(name.toLowerCase())

/** A facet asked for, with how many of its values to answer. */
export interface FacetRequest {
  facet: Facet
  limit: number
}

/** A `facet` parameter that cannot be read: the message says what is wrong and what is allowed. */
export class FacetError extends Error {
  override name = 'FacetError'
}

/**
 * Reads a `facet` parameter: names separated by commas, each optionally `:N` for how many values
 * (1 to MAX_FACET_LIMIT, default DEFAULT_FACET_LIMIT), as Shodan's `facets=country:5` writes it.
 * A leak-only facet is refused for `scope` service.
 */
export function parseFacets(text: string, scope: 'service' | 'leak' | 'any'): FacetRequest[] {
  const out: FacetRequest[] = []
  for (const item of text.split(',')) {
    const part = item.trim()
    if (part === '') continue
    const colon = part.lastIndexOf(':')
    const name = colon === -1 ? part : part.slice(0, colon)
    const facet = facetNamed(name)
    if (facet === undefined) {
      throw new FacetError(`there is no facet \`${clip(name)}\`; the facets are ${FACETS.map((f) => f.name).join(', ')}`)
    }
    if (facet.leakOnly && scope === 'service') throw new FacetError(`the facet \`${facet.name}\` is a field of leaks: count with scope leak`)
    let limit = DEFAULT_FACET_LIMIT
    if (colon !== -1) {
      const n = part.slice(colon + 1)
      if (!/^[0-9]{1,3}$/.test(n) || Number(n) < 1 || Number(n) > MAX_FACET_LIMIT) {
        throw new FacetError(`\`${clip(part)}\`: the number of values must be an integer from 1 to ${MAX_FACET_LIMIT}`)
      }
      limit = Number(n)
    }
    if (out.some((r) => r.facet === facet)) throw new FacetError(`the facet \`${facet.name}\` is asked for twice`)
    out.push({ facet, limit })
  }
  if (out.length > MAX_FACETS) throw new FacetError(`at most ${MAX_FACETS} facets may be asked for at once (got ${out.length})`)
  return out
}

/** The query term that narrows a search to events with this facet value (the web view's links): `+port:443`, `+host:="a.example.com"`. */
export function facetTerm(facet: Facet, value: string): string {
  const plain = /^[A-Za-z0-9_.:/@-]+$/.test(value) && !facet.exact
  return `+${facet.field}:${facet.exact ? '=' : ''}${plain ? value : `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`}`
}

/**
 * The order of a facet's values: most counted first, ties by the value (code points, or as
 * addresses for `ip`). Both stores and the oracle sort so.
 */
export function compareFacetValues(facet: Facet, a: { value: string; count: number }, b: { value: string; count: number }): number {
  if (a.count !== b.count) return b.count - a.count
  return facet.order === 'address' ? compareAddresses(a.value, b.value) : compareCodePoints(a.value, b.value)
}

/** Strings in code point order (the order of their UTF-8 bytes, PostgreSQL's `COLLATE "C"`). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!
    const y = b.codePointAt(i)!
    if (x !== y) return x - y
    if (x > 0xffff) i++
  }
  return a.length - b.length
}

/** Canonical addresses as PostgreSQL orders `inet`: IPv4 before IPv6, then by bytes. */
function compareAddresses(a: string, b: string): number {
  const x = addressBytes(a)
  const y = addressBytes(b)
  if (x === null || y === null) return compareCodePoints(a, b)
  if (x.length !== y.length) return x.length - y.length
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! - y[i]!
  return 0
}

/** The counts of one facet over `docs` (each with its values), as the stores answer them: the oracle. */
export function facetCounts(facet: Facet, docs: Iterable<Record<string, unknown>>, limit: number): { value: string; count: number }[] {
  const counts = new Map<string, number>()
  for (const doc of docs) for (const v of facet.values(doc)) counts.set(v, (counts.get(v) ?? 0) + 1)
  return topValues(facet, counts, limit)
}

/** The `limit` first values of a map of counts, in compareFacetValues order. */
export function topValues(facet: Facet, counts: ReadonlyMap<string, number>, limit: number): { value: string; count: number }[] {
  return [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => compareFacetValues(facet, a, b))
    .slice(0, limit)
}

const clip = (s: string) => (s.length > 40 ? `${s.slice(0, 39)}…` : s).replace(/[\u0000-\u001f\u007f-\u009f]/g, '?')
