import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { resolveOptions as resolve } from '../../src/normalize/context.js'
import { eventSerializer, isCanonicalText, normalize, type NormalizeOptions, normalizeText, resolveOptions } from '../../src/normalize/index.js'
import { applyEdits, compile, literal, STRING } from '../../src/normalize/pattern.js'
import { int, num } from '../../src/normalize/values.js'
import { lenientText } from './arbitraries.js'

const keep = resolve()

describe('patterns accept exactly what JSON.stringify writes', () => {
  it('strings', () => {
    const str = compile(literal(STRING))
    for (const value of ['', 'a', 'é', '😀', '"', '\\', '/', '\b\f\n\r\t', '\u0000\u001f\u000b', '\u2028', 'a\\"b']) {
      expect(str(JSON.stringify(value), keep), JSON.stringify(value)).toBe(true)
    }
    // Escaped lone surrogates are canonical too, but declined: saying no only costs the long way.
    expect(str(JSON.stringify('a\ud800'), keep)).toBe(false)
    for (const text of ['"\\/"', '"\\u0041"', '"\\u001F"', '"\\u0008"', '"\\ud83d\\ude00"', '"\ud800"', '"a', '"\u0001"', "'a'", '"a""']) {
      expect(str(text, keep), text).toBe(false)
    }
  })
  it('numbers: only their JavaScript spelling, in range', () => {
    const lat = compile(num(-90, 90).pattern)
    for (const n of [0, 1, -1.5, 48.8566, 1e-7, 90, -90, 0.30000000000000004]) expect(lat(JSON.stringify(n), keep), String(n)).toBe(true)
    for (const text of ['1.0', '-0', '01', '1E-7', '1e-07', '.5', '+1', '91', '0.3000000000000000444']) expect(lat(text, keep), text).toBe(false)
  })
  it('integers: canonical digits, in range', () => {
    const status = compile(int(0, 999).pattern)
    expect(status('443', keep)).toBe(true)
    expect(status('999', keep)).toBe(true)
    for (const text of ['1000', '01', '1.5', '1e3', '-1']) expect(status(text, keep), text).toBe(false)
    const asn = compile(int(0, 4294967295).pattern)
    expect(asn('123456789', keep)).toBe(true)
    expect(asn('4294967295', keep)).toBe(true)
    expect(asn('4294967296', keep)).toBe(false)
    expect(asn('42949672950', keep)).toBe(false)
    const size = compile(int().pattern)
    expect(size(String(Number.MAX_SAFE_INTEGER), keep)).toBe(true)
    expect(size(String(Number.MAX_SAFE_INTEGER + 1), keep)).toBe(false)
  })
  it('header maps: names in byte order (distinct, so); lower-case names with lower', () => {
    const lower = resolve({ headerCase: 'lower' })
    const input = resolve({ headerOrder: 'input' })
    const doc = (header: string) => {
      const r = normalize({})
      if (!r.ok) throw new Error('unreachable')
      return JSON.stringify(r.event).replace('"header":{}', `"header":${header}`)
    }
    expect(isCanonicalText(doc('{"B":"x\\":\\"y","a":"1"}'), keep)).toBe(true)
    expect(isCanonicalText(doc('{"a":"1","B":"x\\":\\"y"}'), keep)).toBe(false)
    expect(isCanonicalText(doc('{"a":"1","B":"x\\":\\"y"}'), input)).toBe(true)
    expect(isCanonicalText(doc('{"B":"2","a":"1"}'), lower)).toBe(false)
    expect(isCanonicalText(doc('{"a":"1","a":"2"}'), keep)).toBe(false)
    expect(isCanonicalText(doc('{"a":"1","a":"2"}'), input)).toBe(false)
    // Index-like names: in byte order the text is canonical; input order cannot survive a parse.
    expect(isCanonicalText(doc('{"10":"1","9":"2","a":"3"}'), keep)).toBe(true)
    expect(isCanonicalText(doc('{"9":"2","10":"1"}'), keep)).toBe(false)
    expect(isCanonicalText(doc('{"a":"1","7":"2"}'), input)).toBe(false)
    expect(isCanonicalText(doc('{"__proto__":"1","constructor":"2"}'), keep)).toBe(true)
    // Byte order of the decoded names: '"' (0x22) < '#'; U+E000 (EE 80 80) < U+1F600 (F0 9F 98 80).
    expect(isCanonicalText(doc('{"a\\"":"1","a#":"2"}'), keep)).toBe(true)
    expect(isCanonicalText(doc('{"a#":"2","a\\"":"1"}'), keep)).toBe(false)
    expect(isCanonicalText(doc('{"\ue000":"1","\u{1f600}":"2"}'), keep)).toBe(true)
    expect(isCanonicalText(doc('{"\u{1f600}":"2","\ue000":"1"}'), keep)).toBe(false)
    expect(isCanonicalText(doc('{"a":"1","a ":"2"}'), keep)).toBe(true)
  })
})

const options = fc.record({
  headerCase: fc.constantFrom('keep' as const, 'lower' as const),
  headerOrder: fc.constantFrom('sorted' as const, 'input' as const),
  escape: fc.constantFrom('plain' as const, 'go' as const),
  fingerprint: fc.constantFrom('keep' as const, 'v1' as const, 'v2' as const, 'missing' as const),
})

/** What the full path writes for a text, or undefined when it fails. */
function fullPath(text: string, opts: NormalizeOptions): string | undefined {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  const r = normalize(value, opts)
  // Plain escapes: isCanonicalText judges the text before `escape: 'go'`.
  return r.ok ? eventSerializer({ headerOrder: opts.headerOrder })(r.event) : undefined
}

/** Small edits that may or may not keep a canonical text canonical. */
const mutation = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.constantFrom(' ', '\n', ',', '"', '0', '\\', 'A', '[]', '{}') }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('replace' as const), from: fc.constantFrom('":0', '":[]', '":""', '":null', '"tcp"', '":false', 'Z"', ',"'), to: fc.constantFrom('":0.0', '":null', '":[""]', '":[]', '"tcp","tcp"', '":true', '.0Z"', ', "', '":"\\u0061"') }),
  fc.record({
    kind: fc.constant('replace' as const),
    from: fc.constantFrom('"header":{"', '"header":{}'),
    to: fc.constantFrom('"header":{"X":"1","', '"header":{"7":"1","', '"header":{"10":"1","9":"2","', '"header":{"\\u0001":"1","', '"header":{"a":"1","a":"2","', '"header":{"x":"1"}', '"header":{"5":"1"}'),
  }),
)

type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never

function mutate(text: string, m: Mutation): string {
  if (m.kind === 'insert') {
    const at = m.at % (text.length + 1)
    return text.slice(0, at) + m.text + text.slice(at)
  }
  if (m.kind === 'delete') {
    const at = m.at % text.length
    return text.slice(0, at) + text.slice(at + m.length)
  }
  return text.replace(m.from, m.to)
}

describe('isCanonicalText', () => {
  it('says yes only when the full path would write the very same bytes, and says yes to canonical output', () => {
    fc.assert(
      fc.property(lenientText, options, fc.array(mutation, { maxLength: 2 }), (text, opts, edits) => {
        const resolved = resolveOptions(opts)
        const canonical = fullPath(text, opts)!
        const first = normalize(JSON.parse(text), opts)
        // Unknown members and kept-apart set-cookie spellings (both warned about) take the long way,
        // and so do index-like header names in input order (a parse may move them).
        const indexLike = opts.headerOrder === 'input' && Object.keys(JSON.parse(canonical).http.header).some((n) => /^(?:0|[1-9]\d*)$/.test(n))
        if (first.ok && first.warnings.length === 0 && !indexLike) expect(isCanonicalText(canonical, resolved)).toBe(true)
        for (const candidate of [text, edits.reduce(mutate, canonical)]) {
          if (isCanonicalText(candidate, resolved)) expect(fullPath(candidate, opts)).toBe(candidate)
        }
      }),
      { numRuns: 1000 },
    )
  })
})

/** Edits that turn canonical values into lenient ones the rewrite pattern knows (or nearly). */
const lenientEdit = fc.oneof(
  fc.record({ from: fc.constant(/"port":"(\d+)"/), to: fc.constantFrom('"port":$1', '"port":0$1', '"port":$1.0', '"port":-$1') }),
  fc.record({ from: fc.constantFrom(/"(status|length|asn|rows|key_size|version)":(\d+)/), to: fc.constantFrom('"$1":"$2"', '"$1":"0$2"', '"$1":"+$2"', '"$1":"$2$2$2$2$2$2$2$2"') }),
  fc.record({ from: fc.constantFrom(/"(lat|lon)":([-.\de]+)/), to: fc.constantFrom('"$1":"$2"', '"$1":"$20"', '"$1":"+$2"', '"$1":"$2e1"', '"$1":"-0"') }),
  fc.record({ from: fc.constantFrom(/":\[\]/, /"tags":\[\]/, /"domain":\[\]/), to: fc.constantFrom('":null', '":[]') }),
  fc.record({ from: fc.constant(/"header":\{\}/), to: fc.constantFrom('"header":null', '"header":{}') }),
  fc.record({ from: fc.constantFrom(/"(modules|ransom_notes)":null/), to: fc.constantFrom('"$1":[]', '"$1":[null]', '"$1":""') }),
  fc.record({ from: fc.constant(/"raw":null/), to: fc.constantFrom('"raw":""', '"raw":" "') }),
  fc.record({ from: fc.constantFrom(/(T\d\d:\d\d:\d\d(?:\.\d+)?)Z"/, /(T\d\d:\d\d:\d\d(?:\.\d+)?)Z"/g), to: fc.constantFrom('$1+00:00"', '$1-13:45"', '$1z"', '$1.000Z"', '$1+24:00"', '$1Z "') }),
  fc.record({ from: fc.constant(/T(\d\d:\d\d:\d\d)/), to: fc.constantFrom(' $1', 't$1', 'x$1') }),
  fc.record({ from: fc.constant(/"([0-9a-f]{64})"/), to: fc.constantFrom('"$1"', '"ABCDEF$1"'), upper: fc.boolean() }),
)

type LenientEdit = typeof lenientEdit extends fc.Arbitrary<infer E> ? E : never

function applyEdit(text: string, edit: LenientEdit): string {
  const out = text.replace(edit.from, edit.to)
  return 'upper' in edit && edit.upper ? out.replace(/"([0-9a-f]{64})"/, (_, hex: string) => `"${hex.toUpperCase()}"`) : out
}

describe('normalizeText rewrites lenient values in place', () => {
  it('writes exactly what the full path writes, with the same warnings, or fails as it does', () => {
    fc.assert(
      fc.property(lenientText, options, fc.array(lenientEdit, { maxLength: 6 }), fc.array(mutation, { maxLength: 1 }), (text, opts, edits, more) => {
        const canonical = fullPath(text, opts)!
        for (const candidate of [edits.reduce(applyEdit, canonical), more.reduce(mutate, edits.reduce(applyEdit, canonical))]) {
          const fast = normalizeText(candidate, opts)
          let value: unknown
          try {
            value = JSON.parse(candidate)
          } catch {
            expect(fast.ok).toBe(false)
            continue
          }
          const full = normalize(value, opts)
          const written = full.ok ? eventSerializer(opts)(full.event) : ''
          if (full.ok) expect(fast).toMatchObject({ ok: true, text: written, changed: written !== candidate, warnings: full.warnings })
          else expect(fast.ok).toBe(false)
        }
      }),
      { numRuns: 1000 },
    )
  })
  it('gives the same result whichever pattern goes first (after a rewritten record, the rewrite pattern does)', () => {
    const r = normalize({})
    if (!r.ok) throw new Error('unreachable')
    const canonicalLine = JSON.stringify(r.event)
    const lenientLine = canonicalLine.replace('"port":""', '"port":8080')
    // A canonical text recognised by the rewrite pattern comes with no edits: compared without them.
    const withoutEdits = (result: ReturnType<typeof normalizeText>) => {
      if (!result.ok || result.edits === undefined) return result
      const { edits: _, ...rest } = result
      return rest
    }
    fc.assert(
      fc.property(lenientText, options, fc.array(lenientEdit, { maxLength: 6 }), fc.array(mutation, { maxLength: 1 }), (text, opts, edits, more) => {
        const canonical = fullPath(text, opts)!
        for (const candidate of [canonical, edits.reduce(applyEdit, canonical), more.reduce(mutate, edits.reduce(applyEdit, canonical))]) {
          expect(normalizeText(canonicalLine).ok).toBe(true) // canonical first from here
          const canonicalFirst = normalizeText(candidate, opts)
          // Rewritten in place, so the rewrite pattern goes first from here.
          expect((normalizeText(lenientLine) as { edits?: unknown[] }).edits).toHaveLength(1)
          const rewriteFirst = normalizeText(candidate, opts)
          for (const result of [canonicalFirst, rewriteFirst]) if (result.ok && result.edits) expect(applyEdits(candidate, result.edits)).toBe(result.text)
          expect(withoutEdits(rewriteFirst)).toEqual(withoutEdits(canonicalFirst))
        }
      }),
      { numRuns: 500 },
    )
  })
  it('takes the common lenient values of tool output without parsing', () => {
    const r = normalize({})
    if (!r.ok) throw new Error('unreachable')
    const canonical = JSON.stringify(r.event)
    const lenient = canonical
      .replace('"port":""', '"port":8080')
      .replace('"tags":[]', '"tags":null')
      .replace('"status":0', '"status":"404"')
      .replace('"time":"0001-01-01T00:00:00Z"', '"time":"2024-01-02 03:04:05.500+02:00"')
      .replace('"event_pipeline":[]', '"event_pipeline":null')
      .replace('"asn":0', '"asn":"64496"')
      .replace('"location":{"lat":0,"lon":0}', '"location":{"lat":"48.8566","lon":"-2.50"}')
      .replace('"header":{}', '"header":{"Server":"x","Content-Type":"a\\"b","10":"c","9":"d"}')
    expect(lenient).not.toBe(canonical)
    const parse = JSON.parse
    let parsed = 0
    JSON.parse = ((...args: Parameters<typeof JSON.parse>) => {
      parsed++
      return parse(...args)
    }) as typeof JSON.parse
    try {
      const { edits, ...fast } = normalizeText(lenient) as Extract<ReturnType<typeof normalizeText>, { ok: true }>
      // The edits it gives make the same text from the input (a writer copies bytes around them).
      expect(applyEdits(lenient, edits!)).toBe(fast.text)
      expect(fast).toEqual({
        ok: true,
        text: canonical
          .replace('"port":""', '"port":"8080"')
          .replace('"status":0', '"status":404')
          .replace('"0001-01-01T00:00:00Z"', '"2024-01-02T01:04:05.5Z"')
          .replace('"asn":0', '"asn":64496')
          .replace('"location":{"lat":0,"lon":0}', '"location":{"lat":48.8566,"lon":-2.5}')
          .replace('"header":{}', '"header":{"10":"c","9":"d","Content-Type":"a\\"b","Server":"x"}'),
        changed: true,
        warnings: [],
      })
    } finally {
      JSON.parse = parse
    }
    expect(parsed).toBe(0)
  })
})
