/**
 * The protocol objects and the `ssh` extension in normalize(): absent stays absent, present
 * members keep the facts' order, lenient spellings become their strict values, and canonical
 * documents without them are written byte for byte as before (issue 32).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { lenientEvent, strictEvent } from '../../src/conformance/arbitraries.js'
import { eventSerializer, isCanonicalText, normalize, normalizeText, resolveOptions, serializeEvent } from '../../src/normalize/index.js'
import { EVENT_MEMBERS } from '../../src/normalize/shape.js'
import type { ObjectField } from '../../src/normalize/object.js'
import { emptyEvent, type Event, exampleProtocolEvent, PROTOCOLS, SSH_EXTENSION, schemaDocument } from '../../src/schema/index.js'
import { validate } from '../../src/validate/index.js'

const KEEP = resolveOptions()
const ok = (doc: unknown): Event => {
  const r = normalize(doc)
  if (!r.ok) throw new Error(JSON.stringify(r.errors))
  return r.event
}
const problems = (doc: unknown) => {
  const r = normalize(doc)
  return r.ok ? [] : r.errors.map((e) => `${e.code} ${e.pointer}`)
}
const membersOf = (name: string) => ((EVENT_MEMBERS.find(([n]) => n === name)![1] as ObjectField<unknown>).members ?? []).map(([n]) => n)

describe('the normalisers agree with the schema', () => {
  it('every protocol object, its members and the ssh members, in the schema’s order', () => {
    const schema = schemaDocument('event') as { properties: Record<string, unknown>; $defs: Record<string, { properties: object }> }
    expect(EVENT_MEMBERS.map(([name]) => name)).toEqual(Object.keys(schema.properties))
    for (const name of Object.keys(PROTOCOLS)) expect(membersOf(name), name).toEqual(Object.keys(schema.$defs[name]!.properties))
    expect(membersOf('ssh')).toEqual(Object.keys(schema.$defs.ssh!.properties))
    expect(membersOf('ssh').slice(4)).toEqual(Object.keys(SSH_EXTENSION))
  })
})

describe('normalize: protocol objects', () => {
  it('an absent object stays absent; an empty document gets none of them', () => {
    expect(ok({})).toEqual(emptyEvent())
    expect(serializeEvent(ok({}))).toBe(JSON.stringify(emptyEvent()))
  })

  it('null (an object or a member) is absent; {} and present empty values are kept', () => {
    const event = ok({ redis: null, ftp: {}, smtp: { banner: null, starttls: false, extensions: [] }, ssh: { kex_algorithms: null, auth_methods: [] } }) as any
    expect('redis' in event).toBe(false)
    expect(event.ftp).toEqual({})
    expect(event.smtp).toEqual({ starttls: false, extensions: [] })
    expect(event.ssh).toEqual({ fingerprint: '', version: 0, banner: '', motd: '', auth_methods: [] })
    expect(serializeEvent(event)).toMatch(/"ssh":\{"fingerprint":"","version":0,"banner":"","motd":"","auth_methods":\[\]\},"service"/)
    expect(serializeEvent(event)).toMatch(/"network":\{[^}]*\},"ftp":\{\},"smtp":\{"starttls":false,"extensions":\[\]\}\}$/)
  })

  it('writes objects after network and members in the facts’ order, whatever the input order', () => {
    const full = exampleProtocolEvent() as any
    const reversed = Object.fromEntries(Object.entries(full).reverse().map(([k, v]) => [k, v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v]))
    expect(serializeEvent(ok(reversed))).toBe(JSON.stringify(full))
    expect(serializeEvent(reversed as Event)).toBe(JSON.stringify(full))
  })

  it('reads yes/no answers, 0 and 1 as booleans, and numeric strings as integers', () => {
    const event = ok({
      redis: { auth_required: 'yes' },
      ftp: { tls_supported: 'NO', anonymous: 1 },
      smtp: { starttls: 'True' },
      dns: { recursion: '0', dnssec: 0, zone_transfer: 'false' },
      mysql: { protocol_version: '10' },
      memcached: { bytes: '+1048576', threads: '004' },
    }) as any
    expect(event.redis).toEqual({ auth_required: true })
    expect(event.ftp).toEqual({ tls_supported: false, anonymous: true })
    expect(event.smtp).toEqual({ starttls: true })
    expect(event.dns).toEqual({ recursion: false, dnssec: false, zone_transfer: false })
    expect(event.mysql).toEqual({ protocol_version: 10 })
    expect(event.memcached).toEqual({ bytes: 1048576, threads: 4 })
  })

  it('refuses what it cannot read, naming the member', () => {
    expect(problems({ redis: { auth_required: 'maybe' } })).toEqual(['wrong_type /redis/auth_required'])
    expect(problems({ redis: { auth_required: 2 } })).toEqual(['out_of_range /redis/auth_required'])
    expect(problems({ redis: { version: 7 } })).toEqual(['wrong_type /redis/version'])
    expect(problems({ mongodb: { databases: 'admin' } })).toEqual(['wrong_type /mongodb/databases'])
    expect(problems({ mongodb: { databases: ['admin', 3] } })).toEqual(['wrong_type /mongodb/databases/1'])
    expect(problems({ memcached: { threads: -1 } })).toEqual(['out_of_range /memcached/threads'])
    expect(problems({ memcached: { threads: 1.5 } })).toEqual(['wrong_type /memcached/threads'])
    expect(problems({ vnc: [] })).toEqual(['wrong_type /vnc'])
    expect(problems({ ssh: { key: false } })).toEqual(['wrong_type /ssh/key'])
  })

  it('keeps unknown members inside an object, after the known ones, with a warning', () => {
    const r = normalize({ redis: { x_role: 'master', version: '7.2' } })
    expect(r.ok && r.event).toMatchObject({ redis: { version: '7.2', x_role: 'master' } })
    expect(r.ok && Object.keys((r.event as any).redis)).toEqual(['version', 'x_role'])
    expect(r.ok && r.warnings.map((w) => `${w.code} ${w.pointer}`)).toEqual(['unknown_member /redis/x_role'])
    expect(validate(r.ok && r.event).warnings.map((w) => w.pointer)).toEqual(['/redis/x_role'])
  })
})

describe('canonical text with protocol objects', () => {
  it('is recognised without a parse; lenient spellings inside the objects take the long way to the same bytes', () => {
    const text = serializeEvent(exampleProtocolEvent())
    expect(isCanonicalText(text, KEEP)).toBe(true)
    expect(normalizeText(text)).toMatchObject({ ok: true, text, changed: false })
    const lenient = text.replace('"auth_required":false', '"auth_required":"no"').replace('"protocol_version":10', '"protocol_version":"10"').replace('"noauth":true}', '"noauth":1}')
    expect(lenient).not.toBe(text)
    expect(isCanonicalText(lenient, KEEP)).toBe(false)
    expect(normalizeText(lenient)).toMatchObject({ ok: true, text, changed: true })
    // A lenient spelling elsewhere in such a document is still rewritten in place (no parse).
    const port = normalizeText(text.replace('"port":"22"', '"port":22'))
    expect(port).toMatchObject({ ok: true, text, changed: true })
    expect(port.ok && port.edits?.length).toBe(1)
  })

  it('declines other spellings of a vocabulary member (docs/format.md, "Vocabulary"), and the long way gives the canonical one', () => {
    const text = serializeEvent(exampleProtocolEvent())
    for (const [canonical, other] of [
      ['"server_status":"SERVER_STATUS_AUTOCOMMIT"', '"server_status":"Autocommit"'],
      ['"server_status":"SERVER_STATUS_AUTOCOMMIT"', '"server_status":"2"'],
      ['"options":["ECHO","SUPPRESS-GO-AHEAD"]', '"options":["Echo","Suppress Go Ahead"]'],
      ['"options":["ECHO","SUPPRESS-GO-AHEAD"]', '"options":["ECHO","SUPPRESS-GO-AHEAD","Echo"]'],
      ['"security_types":["VNC Authentication (2)","None (1)"]', '"security_types":["VNC Authentication","None"]'],
      ['"version":"3.8"', '"version":"RFB 003.008"'],
      ['"key_type":"ssh-ed25519"', '"key_type":"ED25519"'],
    ] as const) {
      expect(text).toContain(canonical)
      const lenient = text.replace(canonical, other)
      expect(isCanonicalText(lenient, KEEP), other).toBe(false)
      expect(normalizeText(lenient), other).toMatchObject({ ok: true, text, changed: true })
    }
  })

  it('declines what is not canonical: null, a comma in the wrong place, members out of order', () => {
    const base = serializeEvent({ ...emptyEvent(), smtp: { banner: 'a', starttls: true } } as Event)
    expect(isCanonicalText(base, KEEP)).toBe(true)
    for (const text of [
      base.replace('"smtp":{"banner":"a",', '"smtp":{,"banner":"a",'),
      base.replace('"smtp":{"banner":"a",', '"smtp":{"banner":null,'),
      base.replace('{"banner":"a","starttls":true}', '{"starttls":true,"banner":"a"}'),
      base.replace('{"banner":"a","starttls":true}', '{"banner":"a",,"starttls":true}'),
      base.replace('{"banner":"a","starttls":true}', '{"banner":"a","starttls":true,}'),
      base.replace('"smtp":', '"redis":{},"smtp":'),
      base.replace('"starttls":true}', '"starttls":true},"ftp":{}'),
    ]) {
      expect(isCanonicalText(text, KEEP), text.slice(-80)).toBe(false)
      // And the long way still gives the one canonical text, or a clear error.
      const r = normalizeText(text)
      if (r.ok) expect(isCanonicalText(r.text, KEEP) || r.warnings.length > 0).toBe(true)
    }
  })
})

describe('properties', () => {
  const options = fc.record({
    escape: fc.constantFrom('plain' as const, 'go' as const),
    fingerprint: fc.constantFrom('keep' as const, 'v1' as const, 'v2' as const, 'missing' as const),
  })

  it('lenient documents with protocol objects normalise to strict-valid, idempotent output', () => {
    fc.assert(
      fc.property(lenientEvent({ protocols: 'always' }), options, (doc, opts) => {
        expect(validate(doc, { profile: 'lenient' }).errors).toEqual([])
        const r = normalize(doc, opts)
        expect(r.ok).toBe(true)
        if (!r.ok) return
        const first = eventSerializer(opts)(r.event)
        expect(validate(JSON.parse(first), { profile: 'strict' })).toEqual({ ok: true, errors: [], warnings: [] })
        // No `null` survives inside the objects: absent stays absent.
        for (const name of Object.keys(PROTOCOLS)) if (name in r.event) expect(JSON.stringify((r.event as any)[name])).not.toContain('null')
        const again = normalizeText(first, opts)
        expect(again.ok && again.text).toBe(first)
        expect(normalizeText(JSON.stringify(doc), opts)).toMatchObject({ ok: true, text: first })
      }),
      { numRuns: 500 },
    )
  })

  it('canonical documents without them keep their bytes (and are still read without a parse)', () => {
    fc.assert(
      fc.property(strictEvent({ protocols: 'never' }), (event) => {
        const canonical = serializeEvent(ok(event))
        expect(canonical).not.toMatch(/"(?:vnc|ftp|smtp|telnet|redis|mysql|postgresql|mongodb|memcached|amqp|ldap|sip|rdp|dns|rtsp|key_type|kex_algorithms)":/)
        // The members of the specification, in their order, with nothing after `network`.
        expect(Object.keys(JSON.parse(canonical))).toEqual(Object.keys(emptyEvent()))
        expect(normalizeText(canonical)).toMatchObject({ ok: true, text: canonical, changed: false })
        expect(isCanonicalText(canonical, KEEP)).toBe(true)
        expect(serializeEvent(ok(JSON.parse(canonical)))).toBe(canonical)
      }),
      { numRuns: 300 },
    )
  })
})
