/**
 * Issue 33: one rule for what an event is. Over the whole corpus (and a few documents beside
 * it), `convert --from l9`, strict validation and the service's ingest (prepare(), what every
 * store runs) agree: what convert writes is strict-valid and is what ingest stores; what
 * convert refuses, ingest refuses and strict validation too. Ingest may refuse an event convert
 * writes for one reason only, its own policy: it serves `service` and `leak` events (and it
 * fills an empty event_fingerprint, which convert keeps), and base64 raw credentials only.
 */
import { describe, expect, it } from 'vitest'
import { converterNamed } from '../../src/convert/index.js'
import { serializeEvent } from '../../src/normalize/index.js'
import { emptyEvent } from '../../src/schema/index.js'
import { prepare } from '../../src/service/store/prepare.js'
import { validate } from '../../src/validate/index.js'
import { documentNames, INVALID_DIR, readJson, VALID_DIR } from '../corpus/files.js'
import { convertText } from '../support/golden.js'

const corpus = [...documentNames(VALID_DIR).map((n) => [`valid/${n}`, readJson(VALID_DIR, n)] as const), ...documentNames(INVALID_DIR).map((n) => [`invalid/${n}`, readJson(INVALID_DIR, n)] as const)]
const beside: [string, unknown][] = [
  ['{"foo":1}', { foo: 1 }],
  ['{} (the lenient form of the empty event)', {}],
  ['{"Foo":1,"bar":{}}', { Foo: 1, bar: {} }],
  ['lenient: numbers and nulls', { event_type: 'service', event_source: 'x', ip: '192.0.2.1', port: 80, tags: null, time: '2024-01-01T00:00:00+02:00' }],
  ['only an ip', { ip: '192.0.2.1' }],
  ['synack', { ...emptyEvent(), event_type: 'synack', ip: '192.0.2.1', port: '22' }],
]

/**
 * Ingest's refusals for its own policy, not for what the document is: it serves service and leak
 * events, and it keeps raw credential bytes only as base64 (normalize, and so convert, encode
 * other text as its UTF-8 bytes with a warning; ingest will not guess: docs/service.md).
 */
const notServed = (errors: { code: string; pointer: string }[]) =>
  errors.length === 1 && ((errors[0]!.code === 'unknown_value' && errors[0]!.pointer === '/event_type') || (errors[0]!.code === 'bad_base64' && errors[0]!.pointer === '/service/credentials/raw'))

describe('one rule for what an event is', () => {
  for (const [name, doc] of [...corpus, ...beside]) {
    it(name, async () => {
      const converted = await convertText(converterNamed('l9')!, `${JSON.stringify(doc)}\n`)
      // A line holding an array is a list of documents to convert and to the service's ingest alike: its elements are what each judges.
      const ingested = prepare(Array.isArray(doc) && doc.length === 1 ? doc[0] : doc)
      const strict = validate(doc, { profile: 'strict' })
      if (strict.ok) expect(converted.problems).toEqual([])
      if (converted.events.length === 0) {
        expect(converted.problems.length, 'a refused document is reported').toBe(1)
        expect(ingested.ok, 'ingest refuses what convert refuses').toBe(false)
        expect(strict.ok).toBe(false)
        return
      }
      const [event] = converted.events
      expect(validate(event, { profile: 'strict' }).errors).toEqual([])
      // Ingest fills an empty fingerprint (an event's identity needs one): the rest is the same bytes.
      if (ingested.ok && event!.event_fingerprint !== '') expect(ingested.json).toBe(serializeEvent(event!))
      else if (ingested.ok) expect(ingested.json).toBe(serializeEvent({ ...event!, event_fingerprint: (JSON.parse(ingested.json) as { event_fingerprint: string }).event_fingerprint }))
      else expect(notServed(ingested.errors), JSON.stringify(ingested.errors)).toBe(true)
    })
  }

  it('{"foo":1} is refused by all three, for the same reason', async () => {
    const converted = await convertText(converterNamed('l9')!, '{"foo":1}\n')
    expect(converted.events).toEqual([])
    expect(converted.problems[0]!.reason).toMatch(/^not a valid event document: \/: not an event document: it has none of the format's members/)
    expect(validate({ foo: 1 }, { profile: 'strict' }).errors.map((e) => e.code)).toEqual(['not_event'])
    expect(validate({ foo: 1 }, { profile: 'lenient' }).errors.map((e) => e.code)).toEqual(['not_event'])
    const ingested = prepare({ foo: 1 })
    expect(ingested.ok === false && ingested.errors.map((e) => e.code)).toEqual(['not_event'])
  })
})
