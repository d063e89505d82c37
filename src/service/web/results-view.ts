/**
 * The search results page's data: one page of a search (newest first, PAGE_SIZE per page, as
 * the search API pages), each event a row linking to its host page, and the query's error (with
 * its position) when it does not parse.
 */
import type { Query, Scope } from '../../query/index.js'
import { type Facet, facetNamed, facetTerm } from '../../query/facets.js'
import type { CountResult } from '../store/count.js'
import type { Event } from '../../schema/index.js'
import { eventAddress } from '../../query/index.js'
import { canonicalDomain } from '../names/domain.js'
import { eventKey, severityRank } from './rows.js'

/** Results per page: the search API's page (LeakIX's clients assume 20). */
export const PAGE_SIZE = 20
/** Last page a person may ask for (pages from 0): 10 000 results, where LeakIX's Go client stops too. */
export const MAX_PAGE = 499

export interface ResultRow {
  key: string
  kind: 'leak' | 'service'
  severity: string
  severityRank: number
  /** The leak type, or the service's software. */
  headline: string
  summary: string
  plugin: string
  /** Canonical address ('' when the event has none): the row's link to its host page. */
  ip: string
  /** Canonical host name, '' when none. */
  host: string
  port: string
  protocol: string
  /** The event's `time`: when it was last seen. */
  time: string
}

/** A query error as the page shows it: the message, and the query cut into before / term / after. */
export interface ShownError {
  message: string
  before: string
  term: string
  after: string
  /** 1-based position, as the message counts. */
  position: number
}

export interface ResultsView {
  q: string
  scope: 'leak' | 'service'
  page: number
  rows: ResultRow[]
  /** Whether a next page may hold more (this one came back full and more was there). */
  more: boolean
  error: ShownError | null
  /** How the query was read where it may not be what was meant (query/notices.ts; the box's rewrites). */
  notes?: string[]
  /** How many events match (the store's count), or null when it was not counted (`uncounted` says why). */
  total: number | null
  uncounted: string
  /** The facets shown beside the results, each value a link to the narrowed search. */
  facets: FacetView[]
}

/** A facet as the results page shows it. */
export interface FacetView {
  name: string
  label: string
  values: { label: string; count: number; q: string }[]
}

/**
 * The facets of the results page, by scope: only those the stores keep in columns, so counting
 * them reads no event (the memory store; PostgreSQL groups on columns).
 */
export const PAGE_FACETS: Readonly<Record<'leak' | 'service', string>> = { leak: 'severity:5,plugin:5,port:5,country:5', service: 'port:5,plugin:5,country:5,host:5' }
const LABELS: Record<string, string> = { severity: 'Severity', plugin: 'Plugin', port: 'Port', country: 'Country', host: 'Host name', asn: 'Network (AS)', ip: 'Address' }

/**
 * The page's facets from a count: each value links to the search narrowed to it. The term is
 * added to the query as written when the query has only required and excluded parts; otherwise
 * (optional terms, whose meaning a required term would change) the query goes in a required group.
 */
export function facetViews(result: CountResult, text: string, query: Query): FacetView[] {
  const everything = query.clauses.every((c) => c.node.kind === 'all')
  const plain = query.clauses.every((c) => c.occur !== 'should')
  const base = everything ? '' : plain ? text.trim() : `+(${text.trim()})`
  return result.facets.map((f) => {
    const facet = facetNamed(f.name) as Facet
    return {
      name: f.name,
      label: LABELS[f.name] ?? f.name,
      values: f.values.map((v) => ({ label: f.name === 'asn' ? `AS${v.value}` : v.value, count: v.count, q: base === '' ? facetTerm(facet, v.value) : `${base} ${facetTerm(facet, v.value)}` })),
    }
  })
}

/** Longest summary shown in a results cell. */
const SUMMARY_CHARS = 140

/** The row of one stored event (its canonical JSON bytes, as Store.search gives them). */
export function resultRow(bytes: Uint8Array): ResultRow {
  const event = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')) as Event
  const leak = event.event_type === 'leak'
  const software = [event.service.software.name, event.service.software.version].filter((x) => x !== '').join(' ')
  const address = eventAddress(event.ip, event.host)
  return {
    key: eventKey(event),
    kind: leak ? 'leak' : 'service',
    severity: leak ? event.leak.severity : '',
    severityRank: leak ? severityRank(event.leak.severity) : 6,
    headline: leak ? event.leak.type : software,
    summary: event.summary.length > SUMMARY_CHARS ? `${event.summary.slice(0, SUMMARY_CHARS - 1)}…` : event.summary,
    plugin: event.event_source,
    ip: address ?? '',
    host: event.host === '' ? '' : (canonicalDomain(event.host) ?? ''),
    port: event.port,
    protocol: event.protocol,
    time: event.time,
  }
}

/** The scope a page asks for: `leak` (the default) or `service`. */
export const isScope = (text: string): text is 'leak' | 'service' => text === 'leak' || text === 'service'
export type PageScope = Extract<Scope, 'leak' | 'service'>
