import { describe, expect, it } from 'vitest'
import { emptyEvent } from '../../src/schema/index.js'
import { isStrictValid, validate, validateDocument } from '../../src/validate/index.js'

const codes = (doc: unknown, profile: 'strict' | 'lenient' = 'strict') =>
  validate(doc, { profile }).errors.map((e) => `${e.code} ${e.pointer}`)

const withChange = (change: (doc: Record<string, any>) => void) => {
  const doc = emptyEvent() as unknown as Record<string, any>
  change(doc)
  return doc
}

describe('strict profile', () => {
  it('accepts the empty canonical document', () => {
    expect(validate(emptyEvent())).toEqual({ ok: true, errors: [], warnings: [] })
    expect(isStrictValid(emptyEvent())).toBe(true)
  })

  it('names each broken rule with its code and pointer', () => {
    expect(codes(withChange((d) => (d.port = 80)))).toEqual(['wrong_type /port'])
    expect(codes(withChange((d) => (d.port = '65536')))).toEqual(['bad_port /port'])
    expect(codes(withChange((d) => (d.time = '2023-01-02T03:04:05+02:00')))).toEqual(['bad_timestamp /time'])
    expect(codes(withChange((d) => (d.time = '2023-02-30T00:00:00Z')))).toEqual(['bad_timestamp /time'])
    expect(codes(withChange((d) => (d.time = '2023-01-02T03:04:05.120Z')))).toEqual(['bad_timestamp /time'])
    expect(codes(withChange((d) => (d.event_fingerprint = 'ABC')))).toEqual(['bad_fingerprint /event_fingerprint'])
    expect(codes(withChange((d) => (d.http.status = 1000)))).toEqual(['out_of_range /http/status'])
    expect(codes(withChange((d) => delete d.ssl.certificate.cn))).toEqual(['missing_member /ssl/certificate/cn'])
    expect(codes(withChange((d) => (d.service.credentials.raw = 5)))).toEqual(['wrong_type /service/credentials/raw'])
    expect(codes(withChange((d) => (d.transport = null)))).toEqual(['wrong_type /transport'])
    expect(codes([])).toEqual(['not_object '])
  })

  it('gives expected and found values', () => {
    const [issue] = validate(withChange((d) => (d.http.status = '200'))).errors
    expect(issue).toMatchObject({ expected: 'integer', found: '200', message: 'expected integer, found string "200"' })
  })

  it('accepts the leap day of a leap year only', () => {
    expect(codes(withChange((d) => (d.time = '2024-02-29T00:00:00Z')))).toEqual([])
    expect(codes(withChange((d) => (d.time = '2000-02-29T00:00:00Z')))).toEqual([])
    expect(codes(withChange((d) => (d.time = '1900-02-29T00:00:00Z')))).toEqual(['bad_timestamp /time'])
  })

  it('lets software.fingerprint be omitted', () => {
    expect(codes(withChange((d) => delete d.service.software.fingerprint))).toEqual([])
  })

  it('warns, without failing, on unknown members and unlisted values', () => {
    const report = validate(withChange((d) => {
      d.extra = 1
      d.http.header.__proto__ = 'x'
      d.leak.severity = 'urgent'
    }))
    expect(report.ok).toBe(true)
    expect(report.warnings.map((w) => `${w.code} ${w.pointer}`)).toEqual(['unknown_member /extra', 'unknown_value /leak/severity'])
  })

  it('finds unknown members at any depth, in modules too, and none where there are none', () => {
    const warned = (change: (doc: Record<string, any>) => void) =>
      validate(withChange(change)).warnings.filter((w) => w.code === 'unknown_member').map((w) => w.pointer)
    expect(warned((d) => (d.ssl.certificate.serial = '01'))).toEqual(['/ssl/certificate/serial'])
    expect(warned((d) => (d.geoip.location.alt = 3))).toEqual(['/geoip/location/alt'])
    const module = { name: 'm', version: '1', fingerprint: '' }
    expect(warned((d) => (d.service.software.modules = [module, { ...module, extra: true }]))).toEqual(['/service/software/modules/1/extra'])
    expect(warned((d) => (d.service.software.modules = [module]))).toEqual([])
    expect(warned((d) => delete d.service.software.fingerprint)).toEqual([])
    // A member swapped for an unknown one fails strict (missing) and is still named.
    const swapped = validate(withChange((d) => {
      delete d.ssh.motd
      d.ssh.motto = ''
    }))
    expect(swapped.errors.map((e) => e.pointer)).toEqual(['/ssh/motd'])
    expect(swapped.warnings.map((w) => w.pointer)).toEqual(['/ssh/motto'])
  })

  it('treats a "__proto__" header name as data', () => {
    const doc = JSON.parse('{"http":{"header":{"__proto__":"a","constructor":"b"}}}')
    const full = { ...emptyEvent(), http: { ...emptyEvent().http, header: doc.http.header } }
    expect(validate(full).ok).toBe(true)
    expect(validate({ ...full, http: { ...full.http, header: JSON.parse('{"__proto__": 1}') } }).errors[0]).toMatchObject({
      code: 'wrong_type',
      pointer: '/http/header/__proto__',
    })
  })
})

describe('lenient profile', () => {
  it('accepts what real tools emit', () => {
    const doc = JSON.parse(`{"event_type":"synack","port":8080,"transport":null,"tags":null,
      "time":"2021-12-19T15:41:51.814682661+01:00","http":{"header":null,"status":"200"},
      "geoip":{"location":{"lat":"0.0","lon":"-1.5"}},"network":{"asn":"64496"},
      "service":{"software":{"modules":null}}}`)
    expect(codes(doc, 'lenient')).toEqual([])
    expect(codes(doc, 'strict').length).toBeGreaterThan(0)
  })

  it('still rejects what cannot be read', () => {
    expect(codes({ port: 70000 }, 'lenient')).toEqual(['out_of_range /port'])
    expect(codes({ port: 'http' }, 'lenient')).toEqual(['bad_port /port'])
    expect(codes({ network: { asn: 'AS1' } }, 'lenient')).toEqual(['bad_number /network/asn'])
    expect(codes({ time: 'yesterday' }, 'lenient')).toEqual(['bad_timestamp /time'])
    expect(codes({ transport: 'tcp' }, 'lenient')).toEqual(['wrong_type /transport'])
  })
})

describe('API shapes', () => {
  it('validates lookup results, subdomains and error bodies', () => {
    expect(validateDocument('lookup-result', { Services: [emptyEvent()], Leaks: null }).ok).toBe(true)
    expect(validateDocument('lookup-result', { services: [], leaks: [] }).ok).toBe(false)
    expect(validateDocument('subdomains', [{ subdomain: 'a.example.com', distinct_ips: 1, last_seen: '2023-01-02T03:04:05.000Z' }]).ok).toBe(true)
    expect(validateDocument('subdomains', [{ subdomain: 'a.example.com', distinct_ips: 1, last_seen: '2023-01-02T03:04:05Z' }]).errors[0]?.code).toBe('bad_timestamp')
    expect(validateDocument('error', { title: 'Bad Request', description: 'x' }).ok).toBe(true)
  })
})

describe('protocol objects and the ssh extension', () => {
  it('strict: absent is fine, a present object holds its members to their types', () => {
    expect(validate(withChange((d) => (d.redis = {})))).toEqual({ ok: true, errors: [], warnings: [] })
    expect(validate(withChange((d) => (d.ssh.kex_algorithms = [])))).toEqual({ ok: true, errors: [], warnings: [] })
    expect(codes(withChange((d) => (d.redis = { auth_required: 'no' })))).toEqual(['wrong_type /redis/auth_required'])
    expect(codes(withChange((d) => (d.redis = { auth_required: null })))).toEqual(['wrong_type /redis/auth_required'])
    expect(codes(withChange((d) => (d.redis = null)))).toEqual(['wrong_type /redis'])
    expect(codes(withChange((d) => (d.memcached = { bytes: '10' })))).toEqual(['wrong_type /memcached/bytes'])
    expect(codes(withChange((d) => (d.memcached = { bytes: -1 })))).toEqual(['out_of_range /memcached/bytes'])
    expect(codes(withChange((d) => (d.ssh.auth_methods = 'password')))).toEqual(['wrong_type /ssh/auth_methods'])
  })

  it('strict: unknown members inside them are warnings, as everywhere', () => {
    const report = validate(withChange((d) => (d.mongodb = { version: '6.0', x_shards: 3 })))
    expect(report.ok).toBe(true)
    expect(report.warnings.map((w) => `${w.code} ${w.pointer}`)).toEqual(['unknown_member /mongodb/x_shards'])
    expect(validate(withChange((d) => (d.ssh.x_hassh = 'abc'))).warnings.map((w) => w.pointer)).toEqual(['/ssh/x_hassh'])
  })

  it('lenient: null for absent, yes/no answers, 0 and 1, integers as text; nothing else', () => {
    const doc = withChange((d) => {
      d.redis = { auth_required: 'no', version: null }
      d.ftp = { anonymous: 1, tls_supported: 'Yes' }
      d.mysql = { protocol_version: '10' }
      d.vnc = null
      d.ssh.kex_algorithms = null
    })
    expect(codes(doc, 'lenient')).toEqual([])
    expect(codes(withChange((d) => (d.redis = { auth_required: 'maybe' })), 'lenient')).toEqual(['wrong_type /redis/auth_required'])
    expect(codes(withChange((d) => (d.redis = { auth_required: 2 })), 'lenient')).toEqual(['out_of_range /redis/auth_required'])
    expect(codes(withChange((d) => (d.redis = [])), 'lenient')).toEqual(['wrong_type /redis'])
    expect(codes(withChange((d) => (d.redis = { version: 7 })), 'lenient')).toEqual(['wrong_type /redis/version'])
    // The members of the specification keep their rules: no yes/no there.
    expect(codes(withChange((d) => (d.ssl.enabled = 'yes')), 'lenient')).toEqual(['wrong_type /ssl/enabled'])
  })
})
