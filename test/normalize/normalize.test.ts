import { describe, expect, it } from 'vitest'
import { normalize, normalizeText, serializeEvent } from '../../src/normalize/index.js'
import { emptyEvent, type Event } from '../../src/schema/index.js'
import { validate } from '../../src/validate/index.js'

const ok = (doc: unknown, opts?: Parameters<typeof normalize>[1]): Event => {
  const r = normalize(doc, opts)
  if (!r.ok) throw new Error(JSON.stringify(r.errors))
  return r.event
}
const errors = (doc: unknown) => {
  const r = normalize(doc)
  return r.ok ? [] : r.errors.map((e) => `${e.code} ${e.pointer}: ${e.message}`)
}

describe('normalize: shape and empty values', () => {
  it('fills an empty document with every member, in emptyEvent() order', () => {
    const event = ok({})
    expect(event).toEqual(emptyEvent())
    expect(serializeEvent(event)).toBe(JSON.stringify(emptyEvent()))
    expect(JSON.stringify(event)).toBe(JSON.stringify(emptyEvent()))
  })

  it('writes members in canonical order whatever the input order', () => {
    const shuffled = Object.fromEntries(Object.entries(emptyEvent()).reverse())
    expect(JSON.stringify(ok(shuffled))).toBe(JSON.stringify(emptyEvent()))
    expect(serializeEvent(shuffled as Event)).toBe(JSON.stringify(emptyEvent()))
  })

  it('turns null arrays and maps into [] and {}, and empty raw/modules/ransom_notes into null', () => {
    const event = ok({
      event_pipeline: null,
      transport: null,
      tags: null,
      http: { header: null },
      ssl: { certificate: { domain: null } },
      service: { credentials: { raw: '' }, software: { modules: [] } },
      leak: { dataset: { ransom_notes: [] } },
    })
    expect(event.event_pipeline).toEqual([])
    expect(event.transport).toEqual([])
    expect(event.tags).toEqual([])
    expect(event.http.header).toEqual({})
    expect(event.ssl.certificate.domain).toEqual([])
    expect(event.service.credentials.raw).toBeNull()
    expect(event.service.software.modules).toBeNull()
    expect(event.leak.dataset.ransom_notes).toBeNull()
  })

  it('always writes software.fingerprint and completes modules', () => {
    const event = ok({ service: { software: { name: 'nginx', modules: [{ name: 'ssl' }] } } })
    expect(event.service.software).toEqual({ name: 'nginx', version: '', os: '', modules: [{ name: 'ssl', version: '', fingerprint: '' }], fingerprint: '' })
  })
})

describe('normalize: values', () => {
  it('canonicalises times exactly', () => {
    const event = ok({
      time: '2023-01-02T03:04:05.123456789+02:00',
      ssl: { certificate: { not_before: '2023-01-01 00:30:00.100+01:00', not_after: '2024-01-01t00:00:00.000z' } },
    })
    expect(event.time).toBe('2023-01-02T01:04:05.123456789Z')
    expect(event.ssl.certificate.not_before).toBe('2022-12-31T23:30:00.1Z')
    expect(event.ssl.certificate.not_after).toBe('2024-01-01T00:00:00Z')
  })

  it('coerces ports to decimal strings and numeric strings to numbers', () => {
    expect(ok({ port: 443 }).port).toBe('443')
    expect(ok({ port: '0080' }).port).toBe('80')
    expect(ok({ port: '000' }).port).toBe('0')
    expect(ok({ port: '' }).port).toBe('')
    const event = ok({ network: { asn: '13335' }, http: { status: '+200', length: '01024' }, geoip: { location: { lat: '0.0', lon: '-122.5' } } })
    expect(event.network.asn).toBe(13335)
    expect(event.http.status).toBe(200)
    expect(event.http.length).toBe(1024)
    expect(event.geoip.location).toEqual({ lat: 0, lon: -122.5 })
    expect(Object.is(ok({ geoip: { location: { lat: -0 } } }).geoip.location.lat, 0)).toBe(true)
  })

  it('de-duplicates transport and tags keeping the first of each, and nothing else', () => {
    const event = ok({ transport: ['tcp', 'tls', 'tcp', 'http', 'tls'], tags: ['b', 'a', 'b'], event_pipeline: ['x', 'x'] })
    expect(event.transport).toEqual(['tcp', 'tls', 'http'])
    expect(event.tags).toEqual(['b', 'a'])
    expect(event.event_pipeline).toEqual(['x', 'x'])
  })

  it('lower-cases hex fingerprints', () => {
    const upper = 'AB'.repeat(32)
    const event = ok({ event_fingerprint: upper, ssl: { certificate: { fingerprint: upper } } })
    expect(event.event_fingerprint).toBe('ab'.repeat(32))
    expect(event.ssl.certificate.fingerprint).toBe('ab'.repeat(32))
  })
})

describe('normalize: errors name the pointer and why, and nothing is dropped silently', () => {
  it('reports each value it cannot normalise', () => {
    expect(errors({ port: 70000 })).toEqual(['bad_port /port: 70000 is not a port number 0–65535'])
    expect(errors({ port: 'http' })).toEqual(['bad_port /port: "http" is not a port number 0–65535'])
    expect(errors({ port: ' 80' })).toEqual(['bad_port /port: " 80" is not a port number 0–65535'])
    expect(errors({ port: true })).toEqual(['wrong_type /port: expected string, found boolean true'])
    expect(errors({ time: '2023-02-30T00:00:00Z' })).toEqual(['bad_timestamp /time: day 30 does not exist: February 2023 has 28 days'])
    expect(errors({ ssl: { certificate: { not_after: 1700000000 } } })).toEqual(['wrong_type /ssl/certificate/not_after: expected string, found integer 1700000000'])
    expect(errors({ network: { asn: '12a' } })).toEqual(['bad_number /network/asn: "12a" is not an integer'])
    expect(errors({ network: { asn: 4294967296 } })).toEqual(['out_of_range /network/asn: 4294967296 is out of range: must be 0–4294967295'])
    expect(errors({ http: { status: 1.5 } })).toEqual(['wrong_type /http/status: expected integer, found number 1.5'])
    expect(errors({ geoip: { location: { lat: '91' } } })).toEqual(['out_of_range /geoip/location/lat: "91" is out of range: must be -90–90'])
    expect(errors({ event_fingerprint: 'abc' })).toEqual(['bad_fingerprint /event_fingerprint: "abc" is not 64 hexadecimal characters'])
    expect(errors({ tags: ['a', 3] })).toEqual(['wrong_type /tags/1: expected string, found integer 3'])
    expect(errors({ http: { header: { 'a/b': 1 } } })).toEqual(['wrong_type /http/header/a~1b: header value must be a string, found integer 1'])
    expect(errors({ ssl: null })).toEqual(['wrong_type /ssl: expected object, found null'])
    expect(ok({ time: '0001-01-01T00:00:00+01:00' }).time).toBe('0000-12-31T23:00:00Z')
    expect(errors({ time: '0000-01-01T00:00:00+01:00' })).toEqual(["bad_timestamp /time: '0000-01-01T00:00:00+01:00' falls outside the years 0000–9999 once converted to UTC"])
    expect(ok({ time: '0000-03-01T00:30:00+01:00' }).time).toBe('0000-02-29T23:30:00Z') // 0000 is a leap year (proleptic Gregorian)
    expect(errors({ summary: null })).toEqual(['wrong_type /summary: expected string, found null'])
  })

  it('reports every problem of a document at once', () => {
    expect(errors({ port: -1, time: 'now', tags: 'x' }).map((e) => e.split(':')[0])).toEqual(['bad_port /port', 'bad_timestamp /time', 'wrong_type /tags'])
  })

  it('rejects what is not an object', () => {
    for (const doc of [null, [], 'x', 3]) expect(normalize(doc)).toMatchObject({ ok: false, errors: [{ code: 'not_object', pointer: '' }] })
  })

  it('keeps unknown members after the known ones, in input order, with a warning', () => {
    const r = normalize({ zz: 1, event_type: 'service', http: { extra: [1], title: 't' }, aa: { b: 2 } })
    if (!r.ok) throw new Error('expected ok')
    const text = JSON.stringify(r.event)
    expect(text.endsWith('"network":{"organization_name":"","asn":0,"network":""},"zz":1,"aa":{"b":2}}')).toBe(true)
    expect(text).toContain('"favicon_hash":"","extra":[1]}')
    expect(r.warnings.map((w) => `${w.code} ${w.pointer}`)).toEqual(['unknown_member /http/extra', 'unknown_member /zz', 'unknown_member /aa'])
  })
})

describe('normalize: header maps', () => {
  // The map's text as written (a parse would list index-like names first).
  const headers = (text: string, headerCase: 'keep' | 'lower', headerOrder: 'sorted' | 'input' = 'sorted') => {
    const r = normalizeText(`{"http":{"header":${text}}}`, { headerCase, headerOrder })
    if (!r.ok) throw new Error(JSON.stringify(r.errors))
    return /"header":(\{[^}]*\})/.exec(r.text)![1]
  }

  it('keeps names as given by default, written in byte order of their UTF-8 bytes (Go\'s order)', () => {
    expect(headers('{"Server":"a","server":"b","X-A":"c"}', 'keep')).toBe('{"Server":"a","X-A":"c","server":"b"}')
    expect(headers('{"content-type":"a","X-B":"b","Date":"c"}', 'keep')).toBe('{"Date":"c","X-B":"b","content-type":"a"}')
    // Index-like names sort as text, not first as an object lists them.
    expect(headers('{"b":"1","9":"2","10":"3","0":"4"}', 'keep')).toBe('{"0":"4","10":"3","9":"2","b":"1"}')
    // U+E000 (EE 80 80) before U+1F600 (F0 9F 98 80), though its UTF-16 code unit is higher.
    expect(headers('{"\u{1f600}":"1","\ue000":"2"}', 'keep')).toBe('{"\ue000":"2","\u{1f600}":"1"}')
  })

  it('with --header-order input, writes names in input order', () => {
    expect(headers('{"Server":"a","server":"b","X-A":"c"}', 'keep', 'input')).toBe('{"Server":"a","server":"b","X-A":"c"}')
  })

  it('with lower, lower-cases names and joins the values of names that collide with ", "', () => {
    expect(headers('{"Server":"a","X-A":"c","server":"b","SERVER":"d"}', 'lower')).toBe('{"server":"a, b, d","x-a":"c"}')
  })

  it('never joins set-cookie: colliding spellings are kept apart, with a warning', () => {
    expect(headers('{"Set-Cookie":"a=1, b","SET-COOKIE":"c=2"}', 'lower')).toBe('{"SET-COOKIE":"c=2","set-cookie":"a=1, b"}')
    expect(headers('{"Set-Cookie":"a=1","set-cookie":"c=2"}', 'lower')).toBe('{"Set-Cookie":"a=1","set-cookie":"c=2"}')
    const r = normalize({ http: { header: { 'Set-Cookie': 'a', 'SET-COOKIE': 'b' } } }, { headerCase: 'lower' })
    expect(r.ok && r.warnings.map((w) => w.pointer)).toEqual(['/http/header/SET-COOKIE'])
  })
})

describe('normalize: names such as __proto__ stay data', () => {
  const text =
    '{"__proto__":{"polluted":true},"http":{"header":{"__proto__":"a","constructor":"b","prototype":"c","Constructor":"d"}},"constructor":{"prototype":{"polluted":1}}}'

  it('survives validate → normalise → output, for both header modes', () => {
    const before = Object.getOwnPropertyNames(Object.prototype).sort()
    for (const headerCase of ['keep', 'lower'] as const) {
      const doc = JSON.parse(text)
      expect(validate(doc, { profile: 'lenient' }).ok).toBe(true)
      expect(validate(doc).warnings.map((w) => w.pointer)).toContain('/__proto__')
      const r = normalizeText(text, { headerCase })
      if (!r.ok) throw new Error(JSON.stringify(r.errors))
      const out = JSON.parse(r.text)
      expect(Object.keys(out.http.header)).toEqual(headerCase === 'keep' ? ['Constructor', '__proto__', 'constructor', 'prototype'] : ['__proto__', 'constructor', 'prototype'])
      expect(out.http.header.constructor).toBe(headerCase === 'keep' ? 'b' : 'b, d')
      expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ polluted: true })
      expect(r.text).toContain('"__proto__":{"polluted":true}')
      expect(validate(out).ok).toBe(true)
      const event = ok(doc, { headerCase })
      expect(Object.getPrototypeOf(event)).toBe(Object.prototype)
      expect(Object.hasOwn(event, '__proto__')).toBe(true)
      expect(event.http.header.__proto__).toBe('a')
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before)
    expect(Object.prototype.constructor).toBe(Object)
    expect(Object.getPrototypeOf(Object.prototype)).toBeNull()
  })
})

describe('normalize: fingerprint option', () => {
  const base = { event_source: 'testing', summary: 'test\ntest\n' }
  const v1 = '5a2c67df7b758a1eb5b5f87eed5caddeed5caddeed5caddeed5caddefe9efc5e'
  const wrong = 'f'.repeat(64)
  it('keep never changes a fingerprint; missing fills only empty ones; v1/v2 always recompute', () => {
    expect(ok({ ...base, event_fingerprint: wrong }).event_fingerprint).toBe(wrong)
    expect(ok(base).event_fingerprint).toBe('')
    expect(ok(base, { fingerprint: 'missing' }).event_fingerprint).toBe(v1)
    expect(ok({ ...base, event_fingerprint: wrong }, { fingerprint: 'missing' }).event_fingerprint).toBe(wrong)
    expect(ok({ ...base, event_fingerprint: wrong }, { fingerprint: 'v1' }).event_fingerprint).toBe(v1)
    expect(ok(base, { fingerprint: 'v2' }).event_fingerprint).toBe('5a2c67df7b758a1eb5b5f87eed5caddeed5caddeed5caddeed5caddeed5cadde')
  })
})

describe('normalizeText: already-canonical input is written through', () => {
  it('returns the input string itself, unchanged, for a canonical record', () => {
    const text = JSON.stringify(ok({ event_type: 'service', port: 80, time: '2023-01-02T03:04:05.5Z', transport: ['tcp', 'http'] }))
    const r = normalizeText(text)
    expect(r).toEqual({ ok: true, text, changed: false, warnings: [] })
  })
  it('rewrites a record that is strict-valid but not canonical in form', () => {
    const pretty = JSON.stringify(emptyEvent(), null, 1)
    expect(normalizeText(pretty)).toMatchObject({ ok: true, text: JSON.stringify(emptyEvent()), changed: true })
    const escaped = JSON.stringify(emptyEvent()).replace('"event_type":""', '"event_type":"\\u0073ervice"')
    expect(normalizeText(escaped)).toMatchObject({ ok: true, changed: true })
  })
  it('reports bad JSON', () => {
    expect(normalizeText('{oops')).toMatchObject({ ok: false, errors: [{ code: 'bad_json', pointer: '' }] })
  })
})
