import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { strictEvent } from '../../../src/conformance/arbitraries.js'
import { isCanonicalText, normalize, resolveOptions, serializeEvent } from '../../../src/normalize/index.js'
import { canonicalFields, corpusFiles, JsonText, prepare } from '../../../src/service/index.js'
import { isStrictValid } from '../../../src/validate/index.js'
import { readFileSync } from 'node:fs'
import { makeEvent } from '../support.js'
import { canonicalTextFields } from '../../../src/service/store/canonical-fields.js'

const KEEP = resolveOptions({ fingerprint: 'keep' })
const tricky = fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('"', '\\', ',"time":"', '"],"event_fingerprint":"', '\\"', '\u2028', 'é', '\u0001'))

describe('canonicalFields', () => {
  it('reads the same members a parse would, whatever the strings hold', () => {
    fc.assert(
      fc.property(tricky, tricky, tricky, tricky, fc.array(tricky, { maxLength: 3 }), tricky, (source, host, summary, header, pipeline, severity) => {
        const event = makeEvent({
          event_source: source,
          event_pipeline: pipeline,
          host,
          summary,
          ip: '2001:db8::1',
          port: '443',
          event_fingerprint: 'f'.repeat(64),
          time: '2024-02-29T12:00:00.5Z',
        })
        event.http.header = { time: header, summary: header, [header]: 'x' }
        event.leak = { ...event.leak, type: header, severity }
        event.tags = [',"leak":{"stage":"', severity]
        const text = serializeEvent(event)
        if (!isCanonicalText(text, KEEP)) return
        expect(canonicalFields(text)).toEqual({
          eventType: 'service',
          source,
          fingerprint: 'f'.repeat(64),
          ip: '2001:db8::1',
          host,
          port: '443',
          time: '2024-02-29T12:00:00.5Z',
          severity,
        })
      }),
      { numRuns: 200 },
    )
  })

  it('takes the canonical-text path only for strict-valid documents, and stores them byte for byte', () => {
    let fast = 0
    for (const file of corpusFiles()) {
      const doc = JSON.parse(readFileSync(file, 'utf8'))
      if (doc.event_type !== 'service' && doc.event_type !== 'leak') continue // not served: refused (store cases)
      const text = serializeEvent(doc)
      const prepared = prepare(new JsonText(text))
      expect(prepared.ok, file).toBe(true)
      if (prepared.ok && prepared.event === undefined) {
        expect(isStrictValid(JSON.parse(text)), file).toBe(true)
        expect(prepared.json).toBe(text)
        fast++
      }
    }
    expect(fast).toBeGreaterThan(corpusFiles().length / 2)
  })

  it('documents with protocol objects: read from their canonical text, and stored as that text', () => {
    fc.assert(
      fc.property(strictEvent({ type: 'service', protocols: 'always' }), fc.constantFrom(',"time":"', ',"leak":{"stage":"', '"],"event_fingerprint":"', 'x'), (event, tricky) => {
        event.event_fingerprint = 'e'.repeat(64)
        if (event.redis) event.redis.version = tricky
        const r = normalize(event, { fingerprint: 'keep' })
        if (!r.ok) throw new Error(JSON.stringify(r.errors))
        const text = serializeEvent(r.event)
        expect(isCanonicalText(text, KEEP)).toBe(true)
        expect(canonicalTextFields(text)).toEqual(canonicalFields(text))
        expect(canonicalTextFields(text)).toMatchObject({ eventType: 'service', fingerprint: 'e'.repeat(64), time: r.event.time })
        const prepared = prepare(new JsonText(text))
        expect(prepared).toMatchObject({ ok: true, json: text })
        expect(prepared.ok && prepared.event).toBeUndefined() // the canonical-text path: no parse
      }),
      { numRuns: 100 },
    )
  })

  it('canonicalTextFields: the fields exactly when isCanonicalText says yes, for canonical and edited texts', () => {
    const edits = fc.constantFrom<[string, string]>(['"port":"443"', '"port":443'], ['Z"', '+00:00"'], ['"tags":[', '"tags":["a","a",'], ['"header":{', '"header":{"7":"1",'], ['"raw":null', '"raw":""'], ['', ''], ['"leak":{"stage":"', '"leak":{"x":"'])
    fc.assert(
      fc.property(tricky, tricky, tricky, fc.array(tricky, { maxLength: 3 }), tricky, edits, (source, host, header, pipeline, severity, [from, to]) => {
        const event = makeEvent({ event_source: source, event_pipeline: pipeline, host, ip: '2001:db8::1', port: '443', time: '2024-02-29T12:00:00.5Z' })
        event.http.header = { time: header, [header]: 'x' }
        event.leak = { ...event.leak, type: header, severity }
        const text = serializeEvent(event).replace(from, to)
        expect(canonicalTextFields(text)).toEqual(isCanonicalText(text, KEEP) ? canonicalFields(text) : null)
      }),
      { numRuns: 300 },
    )
  })
})
