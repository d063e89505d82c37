/** The byte order of header names and Go's escapes, each against a reference written here. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { goEscape } from '../../src/normalize/go-escape.js'
import { compareNames, namesSorted, sortedMapText } from '../../src/normalize/header-order.js'
import { emptyEvent } from '../../src/schema/index.js'
import { eventSerializer, serializeEvent } from '../../src/normalize/index.js'

const utf8Order = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))
const sign = (n: number) => Math.sign(n)
const name = fc.oneof(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), fc.constantFrom('0', '9', '10', '\ue000', '\uffff', '😀', '𝄞', 'a', 'A', ''))

describe('compareNames: byte order of the UTF-8 bytes', () => {
  it('agrees with Buffer.compare on the UTF-8 bytes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        expect(sign(compareNames(a, b))).toBe(sign(utf8Order(a, b)))
      }),
      { numRuns: 5000 },
    )
    expect(compareNames('\ue000', '😀')).toBeLessThan(0) // UTF-16 says the opposite
    expect(compareNames('Date', 'X-B')).toBeLessThan(0)
    expect(compareNames('X-B', 'content-type')).toBeLessThan(0)
    expect(compareNames('10', '9')).toBeLessThan(0)
  })

  it('sortedMapText writes any map sorted, index-like names as text', () => {
    fc.assert(
      fc.property(fc.dictionary(name, fc.string()), (map) => {
        const text = sortedMapText(map)
        const names = [...text.matchAll(/"((?:[^"\\]|\\.)*)":/g)].map((m) => JSON.parse(`"${m[1]}"`) as string)
        expect(JSON.parse(text)).toEqual(map)
        // The names as written (the text's own order, before any parse reorders them).
        expect(names.length).toBe(Object.keys(map).length)
        for (let i = 1; i < names.length; i++) expect(utf8Order(names[i - 1]!, names[i]!)).toBeLessThan(0)
      }),
    )
    expect(namesSorted({ b: 1, a: 2 })).toBe(false)
    expect(namesSorted({ 9: 1, 10: 2 })).toBe(false) // listed 9, 10; bytes say "10" < "9"
  })

  it('serializeEvent writes the header map sorted, whatever the object lists first', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(name, fc.string()), { maxLength: 8 }), (pairs) => {
        const header: Record<string, string> = Object.create(null)
        for (const [n, v] of pairs) header[n] = v
        const event = { ...emptyEvent(), http: { ...emptyEvent().http, header } }
        const text = serializeEvent(event)
        const expected = `{${Object.keys(header).sort(utf8Order).map((n) => `${JSON.stringify(n)}:${JSON.stringify(header[n])}`).join(',')}}`
        expect(text).toContain(`"header":${expected},"title"`)
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(event)))
        expect(eventSerializer({ headerOrder: 'input' })(event)).toBe(JSON.stringify(event))
        // The caller's event is left as it was: the same map, in its own order.
        expect(event.http.header).toBe(header)
        expect(Object.freeze(event.http) && serializeEvent(event)).toBe(text)
      }),
    )
  })

  it('sorts a large map too (past the small-map insertion sort)', () => {
    const names = Array.from({ length: 100 }, (_, i) => `h-${(i * 37) % 100}`)
    const header = Object.fromEntries(names.map((n) => [n, n]))
    const text = serializeEvent({ ...emptyEvent(), http: { ...emptyEvent().http, header } })
    const written = [...text.matchAll(/"(h-\d+)":/g)].map((m) => m[1])
    expect(written).toEqual([...names].sort(utf8Order))
  })
})

/** Go's string encoding (encoding/json, before Go 1.22), written from its rules, one code point at a time. */
function goString(s: string): string {
  let out = '"'
  for (const ch of s) {
    const c = ch.codePointAt(0)!
    if (ch === '"' || ch === '\\') out += `\\${ch}`
    else if (ch === '\n') out += '\\n'
    else if (ch === '\r') out += '\\r'
    else if (ch === '\t') out += '\\t'
    else if (c < 0x20 || ch === '<' || ch === '>' || ch === '&' || c === 0x2028 || c === 0x2029) out += `\\u${c.toString(16).padStart(4, '0')}`
    else if (c >= 0xd800 && c <= 0xdfff) out += '\ufffd' // a lone surrogate: Go holds U+FFFD there
    else out += ch
  }
  return `${out}"`
}

describe('goEscape: the bytes Go writes for a string', () => {
  it('turns JSON.stringify text into Go’s, for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(goEscape(JSON.stringify(s))).toBe(goString(s))
      }),
      { numRuns: 5000 },
    )
    const tricky = fc.array(fc.constantFrom('<', '>', '&', '\u2028', '\u2029', '\b', '\f', '\\', '\\b', '"', '\ud800', '\udc00', '😀', 'u', 'a', '\u0001'), { maxLength: 12 }).map((p) => p.join(''))
    fc.assert(
      fc.property(tricky, (s) => {
        expect(goEscape(JSON.stringify(s))).toBe(goString(s))
      }),
      { numRuns: 5000 },
    )
  })

  it('leaves text without those characters as it is (the same string)', () => {
    const text = JSON.stringify({ a: 'plain é 中 😀 \u007f', b: [1, 2.5e-7] })
    expect(goEscape(text)).toBe(text)
  })
})
