/** The evaluator's semantics, field type by field type (docs/search.md), and the field table. */
import { describe, expect, it } from 'vitest'
import { countryCode, FIELDS, matches, parseQuery, type Scope } from '../../src/query/index.js'
import { emptyEvent, Event as EventSchema, type Event } from '../../src/schema/index.js'

function event(change: (e: Event) => void = () => {}): Event {
  const e = emptyEvent()
  e.event_type = 'service'
  e.time = '2026-11-24T12:00:00Z'
  change(e)
  return e
}

const m = (q: string, e: Event, scope: Scope = 'any', seen?: { first: bigint; last: bigint }) => matches(parseQuery(q, { scope }), e, seen)

describe('evaluate', () => {
  it('combines terms: + required, - excluded, optional ones needed only without a required one', () => {
    const e = event((e) => (e.summary = 'alpha beta'))
    expect(m('alpha', e)).toBe(true)
    expect(m('gamma', e)).toBe(false)
    expect(m('alpha gamma', e)).toBe(true)
    expect(m('+alpha gamma', e)).toBe(true)
    expect(m('+gamma alpha', e)).toBe(false)
    expect(m('-gamma', e)).toBe(true)
    expect(m('-alpha', e)).toBe(false)
    expect(m('alpha -beta', e)).toBe(false)
    expect(m('+(gamma (delta beta)) -(+gamma +alpha)', e)).toBe(true)
    expect(m('(+gamma +alpha) (+beta +alpha)', e)).toBe(true)
    expect(m('*', e)).toBe(true)
    expect(m('', e)).toBe(true)
  })

  it('text: case-insensitive whole words; phrases are consecutive words; := the whole value', () => {
    const e = event((e) => {
      e.summary = 'HTTP/1.1 200 OK\r\nServer: nginx/1.24\r\nLocation: /home/'
      e.http.title = 'Welcome to NGINX!'
      e.ssh.banner = 'SSH-2.0-OpenSSH_8.9'
    })
    expect(m('nginx', e)).toBe(true)
    expect(m('NginX', e)).toBe(true)
    expect(m('ngin', e)).toBe(false)
    expect(m('"Location: /home/"', e)).toBe(true)
    expect(m('"home location"', e)).toBe(false)
    expect(m('"ok server nginx"', e)).toBe(true)
    expect(m('openssh_8', e)).toBe(true)
    expect(m('http.title:welcome', e)).toBe(true)
    expect(m('summary:welcome', e)).toBe(false)
    expect(m('http.title:="Welcome to NGINX!"', e)).toBe(true)
    expect(m('http.title:="welcome to nginx!"', e)).toBe(false)
    expect(m('"to nginx"', event((e) => (e.http.title = 'to')))).toBe(false)
  })

  it('keyword: exact and case-sensitive; regular expressions match the whole value', () => {
    const e = event((e) => (e.event_source = 'GitConfigHttpPlugin'))
    expect(m('plugin:GitConfigHttpPlugin', e)).toBe(true)
    expect(m('event_source:gitconfighttpplugin', e)).toBe(false)
    expect(m('plugin:Git', e)).toBe(false)
    expect(m('plugin:~"Git.*"', e)).toBe(true)
    expect(m('plugin:~"Git"', e)).toBe(false)
    expect(m('plugin:~"[A-Z]\\w+Plugin"', e)).toBe(true)
  })

  it('ip: addresses and CIDR ranges in any spelling; IPv4-mapped is IPv4; host holds the address when ip is empty', () => {
    const v4 = event((e) => (e.ip = '192.0.2.7'))
    const v6 = event((e) => (e.ip = '2001:DB8::7'))
    expect(m('ip:192.0.2.7', v4)).toBe(true)
    expect(m('ip:::ffff:192.0.2.7', v4)).toBe(true)
    expect(m('ip:192.0.2.0/24', v4)).toBe(true)
    expect(m('ip:192.0.2.255/24', v4)).toBe(true)
    expect(m('ip:192.0.3.0/24', v4)).toBe(false)
    expect(m('ip:::ffff:192.0.0.0/112', v4)).toBe(true)
    expect(m('ip:::/0', v4)).toBe(false)
    expect(m('ip:0.0.0.0/0', v4)).toBe(true)
    expect(m('ip:2001:db8:0::7', v6)).toBe(true)
    expect(m('ip:2001:db8::/32', v6)).toBe(true)
    expect(m('ip:0.0.0.0/0', v6)).toBe(false)
    expect(m('ip:192.0.2.9', event((e) => (e.host = '192.0.2.9')))).toBe(true)
    expect(m('ip:*', event((e) => (e.host = 'example.com')))).toBe(false)
  })

  it('dns: the name and every name under it, any case, a trailing dot ignored; := the name only', () => {
    const e = event((e) => {
      e.host = 'WWW.Example.COM.'
      e.ssl.certificate.domain = ['*.example.net', 'api.example.org']
    })
    expect(m('host:example.com', e)).toBe(true)
    expect(m('domain:EXAMPLE.com.', e)).toBe(true)
    expect(m('host:www.example.com', e)).toBe(true)
    expect(m('host:=example.com', e)).toBe(false)
    expect(m('host:=www.example.com', e)).toBe(true)
    expect(m('host:ample.com', e)).toBe(false)
    expect(m('host:com', e)).toBe(true)
    expect(m('ssl.certificate.domain:example.net', e)).toBe(true)
    expect(m('ssl.certificate.domain:example.org', e)).toBe(true)
    expect(m('ssl.certificate.domain:=example.org', e)).toBe(false)
    expect(m('host:bücher.de', event((e) => (e.host = 'www.xn--bcher-kva.de')))).toBe(true)
  })

  it('country: ISO code or name, any case, found through the table both ways', () => {
    const byCode = event((e) => (e.geoip.country_iso_code = 'DE'))
    const byName = event((e) => (e.geoip.country_name = 'Germany'))
    const unknown = event((e) => (e.geoip.country_name = 'Atlantis'))
    for (const q of ['country:Germany', 'country:DE', 'country:de', 'country:GERMANY', 'country:Deutschland']) {
      expect(m(q, byCode), q).toBe(true)
      expect(m(q, byName), q).toBe(true)
    }
    expect(m('country:France', byCode)).toBe(false)
    expect(m('country:atlantis', unknown)).toBe(true)
    expect(m('-country:Russia', byCode)).toBe(true)
    expect(m('+geoip.continent_name:"Europe" -country:"Russia"', event((e) => (e.geoip.continent_name = 'Europe')))).toBe(true)
    expect(countryCode('Côte d’Ivoire')).toBeUndefined()
    expect(countryCode("cote d'ivoire")).toBe('CI')
  })

  it('integers, floats and dates: equality and ranges; a date alone is its midnight UTC, `:` on it the whole day', () => {
    const e = event((e) => {
      e.http.status = 404
      e.geoip.location = { lat: 48.85, lon: 2.35 }
    })
    expect(m('http.status:404', e)).toBe(true)
    expect(m('http.status:>403', e)).toBe(true)
    expect(m('http.status:>404', e)).toBe(false)
    expect(m('http.status:>=404', e)).toBe(true)
    expect(m('http.status:<1000', e)).toBe(true)
    expect(m('geoip.location.lat:>48.8', e)).toBe(true)
    expect(m('geoip.location.lat:48.85', e)).toBe(true)
    expect(m('time:2026-11-24', e)).toBe(true)
    expect(m('time:2026-11-25', e)).toBe(false)
    expect(m('time:>2026-11-24', e)).toBe(true)
    expect(m('time:>"2026-11-24T12:00:00Z"', e)).toBe(false)
    expect(m('time:>="2026-11-24T13:00:00+01:00"', e)).toBe(true)
    expect(m('time:<2026-11-24', e)).toBe(false)
  })

  it('bool, exists (`:*`) and maps (header names any case)', () => {
    const e = event((e) => {
      e.ssl.detected = true
      e.http.header = { Server: 'Apache/2.4.58 (Debian)', 'X-Empty': '' }
    })
    expect(m('ssl.detected:true', e)).toBe(true)
    expect(m('ssl.detected:FALSE', e)).toBe(false)
    expect(m('ssl.enabled:false', e)).toBe(true)
    expect(m('http.header.server:apache', e)).toBe(true)
    expect(m('http.header.SERVER:"2.4.58"', e)).toBe(true)
    expect(m('http.header.server:nginx', e)).toBe(false)
    expect(m('http.header:debian', e)).toBe(true)
    expect(m('http.header.x-empty:*', e)).toBe(true)
    expect(m('http.header.x-other:*', e)).toBe(false)
    expect(m('ssl.jarm:*', e)).toBe(false)
    expect(m('ssl.detected:*', e)).toBe(true)
    expect(m('http.status:*', e)).toBe(false)
    expect(m('time:*', e)).toBe(true)
    expect(m('time:*', event((e) => (e.time = '0001-01-01T00:00:00Z')))).toBe(false)
  })

  it('leak fields: first and last seen from the store, the event’s time offline; age in whole days', () => {
    const e = event((e) => {
      e.event_type = 'leak'
      e.leak.severity = 'critical'
    })
    const day = 86_400_000_000_000n
    const last = 1_795_000_000_000_000_000n
    const seen = { first: last - 10n * day - 1n, last }
    expect(m('age:10', e, 'leak', seen)).toBe(true)
    expect(m('age:>9', e, 'leak', seen)).toBe(true)
    expect(m('age:0', e, 'leak')).toBe(true)
    expect(m('creation_date:<2026-11-24 update_date:2026-11-24', e, 'leak', { first: seen.first, last: 1_795_521_600_000_000_000n })).toBe(true)
    expect(m('+creation_date:2026-11-24 +update_date:2026-11-24', e, 'leak')).toBe(true)
    expect(m('severity:critical', e, 'leak')).toBe(true)
    expect(m('*', e, 'service')).toBe(false)
  })

  it('keeps to the scope: service or leak events only, or any document', () => {
    const leak = event((e) => (e.event_type = 'leak'))
    const other = event((e) => (e.event_type = 'synack'))
    expect(m('*', leak, 'leak')).toBe(true)
    expect(m('*', leak, 'service')).toBe(false)
    expect(m('*', other, 'any')).toBe(true)
    expect(matches(parseQuery('*'), null)).toBe(false)
    expect(matches(parseQuery('summary:x'), { summary: 5 })).toBe(false)
  })

  it('compares strings with NUL and unpaired surrogates as U+FFFD (what PostgreSQL stores)', () => {
    const e = event((e) => (e.event_source = 'a\u0000b\ud800'))
    expect(m('plugin:"a\ufffdb\ufffd"', e)).toBe(true)
    expect(m('"a\ufffdb\ufffd"', event((e) => (e.summary = 'x a\u0000b\udc00 y')))).toBe(true)
  })
})

describe('field table', () => {
  /** Every leaf member path of the event schema. */
  function leaves(schema: { type?: string; properties?: Record<string, unknown>; items?: unknown; anyOf?: unknown[] }, path: string[] = []): string[] {
    if (schema.anyOf) return leaves(schema.anyOf.find((s) => (s as { type?: string }).type !== 'null') as never, path)
    if (schema.type === 'object' && schema.properties) return Object.entries(schema.properties).flatMap(([k, v]) => leaves(v as never, [...path, k]))
    if (schema.type === 'array' && (schema.items as { type?: string }).type === 'object') return leaves(schema.items as never, path)
    return [path.join('.')]
  }

  it('has a row for every member of the event document', () => {
    const names = new Set(FIELDS.map((f) => f.name))
    const missing = leaves(EventSchema as never).filter((p) => !names.has(p) && !p.startsWith('http.header'))
    expect(missing).toEqual([])
  })

  it('reads every field from a document without throwing, whatever the values', () => {
    for (const field of FIELDS) {
      const q = parseQuery(`${field.name}:*`)
      expect(() => matches(q, { http: 5, geoip: [], ssl: { certificate: null }, tags: 'x', leak: { dataset: { ransom_notes: [1, null] } } })).not.toThrow()
    }
  })
})
