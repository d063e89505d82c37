/**
 * The search results page's data: one page of a search (newest first, PAGE_SIZE per page, as
 * the search API pages), each event a row linking to its host page, and the query's error (with
 * its position) when it does not parse.
 */
import type { Scope } from '../../query/index.js'
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
