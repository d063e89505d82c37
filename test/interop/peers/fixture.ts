/**
 * The events the peers' tests load, and what the service should answer about them, worked out
 * here from the events themselves with plain code (never with l9kit's query engine), so a fault
 * in the engine, a store or a route shows as a difference.
 */
import type { Event } from '../../../src/schema/index.js'
import { makeEvent } from '../../service/support.js'

const MINUTE = 60_000
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z')
const geo = (code: string, name: string) => ({ ...makeEvent({}).geoip, country_iso_code: code, country_name: name, continent_name: 'Europe' })
const leak = (severity: string) => ({ ...makeEvent({}).leak, severity, stage: 'open' })

/** Base64 raw credentials, the Go client decodes them into `[]byte`. */
export const RAW = Buffer.from('user:p4ss\u0000\u00ff').toString('base64')

/**
 * Services and leaks over several ports, countries, domains and plugins; times all distinct (so
 * "newest first" is one order); an IPv6 address stored in two spellings; recent events in each
 * plugin-count window (relative to `now`).
 */
export function fixtureEvents(now = Math.floor(Date.now() / 1000) * 1000): Event[] {
  return [
    makeEvent({ event_source: 'HttpNTLM', ip: '192.0.2.1', port: '443', host: 'www.example.be', time: '2026-11-20T08:00:00Z', geoip: geo('FR', 'France'), tags: ['ntlm'], http: { ...makeEvent({}).http, title: 'Outlook Web App' } }),
    makeEvent({ event_source: 'HttpPlugin', ip: '192.0.2.2', port: '8080', host: 'api.example.com', time: '2026-11-21T08:00:00.5Z', geoip: geo('DE', 'Germany') }),
    makeEvent({ event_source: 'SshPlugin', ip: '192.0.2.3', port: '22', time: '2026-11-22T08:00:00Z', geoip: geo('FR', 'France'), summary: 'SSH-2.0-OpenSSH_9.6' }),
    makeEvent({ event_source: 'HttpPlugin', ip: '192.0.2.4', port: '1000', host: 'shop.example.be', time: '2026-11-23T08:00:00.123456789Z', geoip: geo('BE', 'Belgium') }),
    makeEvent({ event_source: 'HttpPlugin', ip: '2001:db8::0', port: '1001', time: '2026-11-25T08:00:00Z', geoip: geo('NL', 'Netherlands'), http: { ...makeEvent({}).http, title: 'Welcome' } }),
    makeEvent({ event_source: 'SmbPlugin', ip: '192.0.2.6', port: '445', time: '2026-11-26T08:00:00Z', geoip: geo('', 'Belgium') }),
    makeEvent({ event_source: 'HttpPlugin', ip: '192.0.2.7', port: '65535', time: '2026-11-27T08:00:00Z', geoip: geo('JP', 'Japan'), summary: 'HTTP/1.1 302 Found Location: /home/ Server: Apache' }),
    makeEvent({ event_source: 'HttpNTLM', ip: '192.0.2.8', port: '443', host: 'mail.example.com', time: iso(now - 30 * MINUTE), geoip: geo('FR', 'France'), tags: ['ntlm'] }),
    makeEvent({ event_type: 'leak', event_source: 'GitConfigHttpPlugin', ip: '192.0.2.10', port: '80', host: 'git.example.be', time: iso(now - 120 * MINUTE), geoip: geo('FR', 'France'), leak: leak('critical'), summary: '[remote "origin"] url = https://github.com/example/site.git' }),
    makeEvent({ event_type: 'leak', event_source: 'GitConfigHttpPlugin', ip: '192.0.2.10', port: '8443', time: '2026-11-24T10:00:00Z', geoip: geo('FR', 'France'), leak: leak('high') }),
    makeEvent({ event_type: 'leak', event_source: 'DotDsStoreOpenPlugin', ip: '192.0.2.11', port: '80', host: 'files.example.com', time: '2026-11-23T09:00:00Z', geoip: geo('DE', 'Germany'), leak: leak('high') }),
    makeEvent({ event_type: 'leak', event_source: 'RedisOpenPlugin', ip: '192.0.2.12', port: '6379', time: iso(now - 3 * 24 * 60 * MINUTE), geoip: geo('BE', 'Belgium'), leak: leak('high'), redis: { version: '7.2.4', mode: 'standalone', auth_required: false } }),
    makeEvent({ event_type: 'leak', event_source: 'ElasticSearchOpenPlugin', ip: '2001:DB8:0::', port: '9200', time: '2026-11-26T09:00:00Z', geoip: geo('NL', 'Netherlands'), leak: leak('medium'), service: { ...makeEvent({}).service, credentials: { noauth: false, username: 'elastic', password: '', key: '', raw: RAW } } }),
  ]
}

export type Scope = 'service' | 'leak'

/** The canonical spelling of the fixture's addresses (the two IPv6 spellings are one address). */
export const canonicalAddress = (ip: string) => (ip.includes(':') ? '2001:db8::' : ip)

/** "newest first": the fixture's times are distinct RFC 3339 UTC texts of one length class, compared as instants. */
export const newestFirst = (events: Event[]) => [...events].sort((a, b) => Date.parse(b.time) - Date.parse(a.time) || (b.time < a.time ? -1 : 1))

/** An event as the Python driver and the Go tool print it: source, ip, port, time (RFC 3339 as Python writes it). */
export const pythonRow = (e: Event) => [e.event_source, e.ip, e.port, pythonTime(e.time)]

/** Python's datetime.isoformat() of an RFC 3339 UTC time: microseconds (truncated), `+00:00`. */
export function pythonTime(time: string): string {
  const m = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?Z$/.exec(time)!
  const micro = (m[2] ?? '').slice(0, 6).padEnd(6, '0')
  return `${m[1]}${/^0+$/.test(micro) ? '' : `.${micro}`}+00:00`
}

/** Countries as the docs' `country:` reads them: ISO code or name, either way round. */
const COUNTRY_NAMES: Record<string, string> = { FR: 'france', DE: 'germany', BE: 'belgium', NL: 'netherlands', JP: 'japan' }
export function inCountry(e: Event, country: string): boolean {
  const code = country.length === 2 ? country.toUpperCase() : Object.keys(COUNTRY_NAMES).find((c) => COUNTRY_NAMES[c] === country.toLowerCase())
  return e.geoip.country_iso_code === code || (code !== undefined && e.geoip.country_name.toLowerCase() === COUNTRY_NAMES[code])
}

/** A name and the names under it (case aside). */
export const under = (host: string, name: string) => host.toLowerCase() === name || host.toLowerCase().endsWith(`.${name}`)

/** The words of a text field, lower-cased: letters and digits. */
const words = (text: string) => text.toLowerCase().split(/[^a-z0-9\u0080-\uffff]+/).filter((w) => w !== '')
/** A phrase's words one after the other in one of the bare text fields (summary, http.title, ssh.banner). */
export function hasPhrase(e: Event, phrase: string): boolean {
  const want = words(phrase)
  return [e.summary, e.http.title, e.ssh.banner].some((text) => {
    const have = words(text)
    return have.some((_, i) => want.every((w, j) => have[i + j] === w))
  })
}

/** Days since the epoch of an event's time (for the `time:"YYYY-MM-DD"` day). */
export const dayOf = (time: string) => time.slice(0, 10)
