/**
 * Table rows for the pages, made from stored events with their first and last seen times.
 * Every member is plain text (or a number): the templates escape all of it on output.
 */
import { createHash } from 'node:crypto'
import { type Event, SEVERITIES } from '../../schema/index.js'
import { parseTime } from '../../time/index.js'
import { canonicalDomain } from '../names/domain.js'
import { canonicalIp } from '../names/ip.js'
import { identityOf } from '../store/prepare.js'
import type { SeenEvent } from '../store/types.js'
import { daysOpen } from './days-open.js'

/** What every row has: the event, its times, and the way to its raw JSON. */
export interface EventRow {
  /** Short stable key of the event's identity (fingerprint, host, ip, port, source): the last segment of its raw link. */
  key: string
  kind: 'leak' | 'service'
  plugin: string
  ip: string
  /** Canonical host name, or the host text as given when it is not a name. */
  host: string
  port: string
  protocol: string
  fingerprint: string
  firstSeen: string
  lastSeen: string
  /** The same times as instants, for sorting (the text does not sort: `00Z` > `00.5Z`). */
  firstAt: bigint
  lastAt: bigint
  days: number
  summary: string
  event: Event
}

export interface FindingRow extends EventRow {
  /** The severity word as stored ('' when none). */
  severity: string
  /** Rank for sorting and the badge style: 0 critical … 4 info, 5 another word, 6 none. */
  severityRank: number
  stage: string
  type: string
}

export interface ServiceRow extends EventRow {
  software: string
  tlsVersion: string
  certificate: CertificateView | null
  httpTitle: string
}

/** What the host page says of a service's certificate (null on a row when the event has none). */
export interface CertificateView {
  cn: string
  issuer: string
  /** Issued by itself: tagged `self-signed` (tlsx), or its issuer is its own common name. */
  selfSigned: boolean
  /** Validity, '' when the event does not say. */
  notBefore: string
  notAfter: string
  /** When the service was last seen, the certificate was outside its validity: `expired` or `not yet valid`, else ''. */
  outside: string
}

/** Longest summary shown in a table cell; the full text is in the event's JSON. */
const SUMMARY_CHARS = 140
const ZERO = '0001-01-01T00:00:00Z'

/** The common part of a row. */
function eventRow(seen: SeenEvent, kind: 'leak' | 'service'): EventRow {
  const text = Buffer.from(seen.json.buffer, seen.json.byteOffset, seen.json.byteLength).toString('utf8')
  const event = JSON.parse(text) as Event
  const summary = event.summary.length > SUMMARY_CHARS ? `${event.summary.slice(0, SUMMARY_CHARS - 1)}…` : event.summary
  return {
    key: eventKey(event),
    kind,
    plugin: event.event_source,
    ip: (event.ip === '' ? null : canonicalIp(event.ip)) ?? event.ip,
    host: (event.host === '' ? null : canonicalDomain(event.host)) ?? event.host,
    port: event.port,
    protocol: event.protocol,
    fingerprint: event.event_fingerprint,
    firstSeen: seen.firstSeen,
    lastSeen: seen.lastSeen,
    firstAt: instantOf(seen.firstSeen),
    lastAt: instantOf(seen.lastSeen),
    days: daysOpen(seen.firstSeen, seen.lastSeen),
    summary,
    event,
  }
}

/** The row of a leak event. */
export function findingRow(seen: SeenEvent): FindingRow {
  const row = eventRow(seen, 'leak')
  const { severity, stage, type } = row.event.leak
  return { ...row, severity, severityRank: severityRank(severity), stage, type }
}

/** The row of a service event. */
export function serviceRow(seen: SeenEvent): ServiceRow {
  const row = eventRow(seen, 'service')
  const { software } = row.event.service
  const { ssl, http } = row.event
  return {
    ...row,
    software: [software.name, software.version].filter((x) => x !== '').join(' '),
    tlsVersion: ssl.version,
    certificate: certificateView(row.event, row.lastAt),
    httpTitle: http.title,
  }
}

/** The certificate of an event as the page shows it; null when the event carries none. */
export function certificateView(event: Event, lastAt: bigint): CertificateView | null {
  const c = event.ssl.certificate
  const notBefore = c.not_before === ZERO ? '' : c.not_before
  const notAfter = c.not_after === ZERO ? '' : c.not_after
  if (c.cn === '' && c.issuer_name === '' && notBefore === '' && notAfter === '' && c.fingerprint === '' && c.domain.length === 0) return null
  const selfSigned = event.tags.includes('self-signed') || (c.issuer_name !== '' && c.issuer_name.toLowerCase() === c.cn.toLowerCase())
  const outside = notAfter !== '' && instantOf(notAfter) < lastAt ? 'expired' : notBefore !== '' && instantOf(notBefore) > lastAt ? 'not yet valid' : ''
  return { cn: c.cn, issuer: c.issuer_name, selfSigned, notBefore, notAfter, outside }
}

/** 0 critical … 4 info, 5 any other word, 6 none. */
export function severityRank(severity: string): number {
  const known = (SEVERITIES as readonly string[]).indexOf(severity)
  if (known !== -1) return known
  return severity === '' ? 6 : 5
}

/** The badge style of a severity: one of a fixed set of class names, never text from an event. */
export function severityClass(rank: number): string {
  return rank < SEVERITIES.length ? SEVERITIES[rank]! : rank === 5 ? 'other' : 'none'
}

/** A short key for an event's identity: the first 16 hex digits of its SHA-256. */
export function eventKey(event: Event): string {
  return createHash('sha256').update(identityOf(event)).digest('hex').slice(0, 16)
}

function instantOf(time: string): bigint {
  const parsed = parseTime(time)
  return parsed.ok ? parsed.value : 0n
}
