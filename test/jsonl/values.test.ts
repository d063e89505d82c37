/**
 * The one JSON reader (src/jsonl/values.ts): JSON Lines, values spread over lines and streams
 * of them, arrays element by element; a broken record costs that record only; a value over
 * the bound is reported without being held; however the input is cut into chunks.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { LineItem } from '../../src/jsonl/lines.js'
import { splitLine, ValueSplitter } from '../../src/jsonl/values.js'

function read(text: string, options: { max?: number; elements?: boolean; cuts?: number[] } = {}): string[] {
  const splitter = new ValueSplitter(options.max ?? 1 << 16, undefined, undefined, { elements: options.elements })
  const out: LineItem[] = []
  const bytes = Buffer.from(text)
  let at = 0
  for (const cut of [...(options.cuts ?? [])].sort((a, b) => a - b)) {
    if (cut > at && cut < bytes.length) {
      splitter.push(bytes.subarray(at, cut), out)
      at = cut
    }
  }
  splitter.push(bytes.subarray(at), out)
  splitter.end(out)
  // A record's text is parsed by the caller: one that does not parse is a bad_json there.
  const shown = (text: string) => {
    try {
      return JSON.stringify(JSON.parse(text))
    } catch {
      return 'bad_json'
    }
  }
  return out.map((o) => ('error' in o ? `${o.line}: ${o.error.code}` : `${o.line}${o.element ? ' element' : ''}: ${shown(o.text)}`))
}

describe('ValueSplitter', () => {
  it('passes JSON Lines through, a record per line', () => {
    expect(read('{"a":1}\n\n{"b":2}\r\n{"c":3}\n')).toEqual(['1: {"a":1}', '3: {"b":2}', '4: {"c":3}'])
  })

  it('gives an array on one line element by element, as a pretty-printed one', () => {
    expect(read('{"a":1}\n[3, {"b":[4]}]\n')).toEqual(['1: {"a":1}', '2 element: 3', '2 element: {"b":[4]}'])
  })

  it('reads a stream of pretty-printed values, each at the line it starts on', () => {
    const text = `${JSON.stringify({ a: 1, b: [1, { c: 'x}' }] }, null, 2)}\n${JSON.stringify({ d: 2 }, null, 4)}\n`
    expect(read(text)).toEqual(['1: {"a":1,"b":[1,{"c":"x}"}]}', '10: {"d":2}'])
  })

  it('gives a pretty-printed array element by element, or whole', () => {
    const text = '[\n  {"a": 1},\n  {\n    "b": 2\n  }\n]\n'
    expect(read(text)).toEqual(['2 element: {"a":1}', '3 element: {"b":2}'])
    expect(read(text, { elements: false })).toEqual(['1: [{"a":1},{"b":2}]'])
  })

  it('costs a JSON Lines record cut short that record only, not the next', () => {
    expect(read('{"a":1,"b":\n{"c":2}\n{"d":3}\n')).toEqual(['1: bad_json', '2: {"c":2}', '3: {"d":3}'])
    expect(read('{"a":"cut\n{"c":2}\n')).toEqual(['1: bad_json', '2: {"c":2}'])
    expect(read('{"a":[1,2]\n{"c":2}\n')).toEqual(['1: bad_json', '2: {"c":2}'])
    expect(read('{"a":[1,2]\n{"c":2}\n').length).toBe(2)
  })

  it('reports a broken document once, at its first line, and resumes at the next value at the margin', () => {
    expect(read('{\n  "a": 1,\n  "b" 2\n}\n{\n  "c": 3\n}\n')).toEqual(['1: bad_json', '5: {"c":3}'])
  })

  it('reports a broken element and reads the next ones; an array cut short says so', () => {
    expect(read('[\n  {\n    "a" 1\n  },\n  {"b": 2}\n]\n')).toEqual(['2: bad_json', '5 element: {"b":2}'])
    // Read whole (validate): one record, named at the element it breaks in, skipped to its `]`.
    expect(read('[\n{"a": 1},\n{"b" 2},\n{"c": 3}\n]\n{"d": 4}\n', { elements: false })).toEqual(['3: bad_json', '6: {"d":4}'])
    expect(read('[\n  {"a": 1},\n  {"b": 2},\n')).toEqual(['2 element: {"a":1}', '3 element: {"b":2}', '3: bad_json'])
    expect(read('[\n  {"a": 1}\n  {"b": 2}\n]\n')).toEqual(['2 element: {"a":1}', '3: bad_json', '3 element: {"b":2}'])
  })

  it('learns the elements\' indentation from the lines after a first element whose line is damaged', () => {
    expect(read('[\n\u0001  {\n    "a": 1\n  },\n  {\n    "b": {"x": 2}\n  }\n]\n')).toEqual(['2: bad_json', '5 element: {"b":{"x":2}}'])
  })

  it('refuses nesting past the bound at once, so an unclosed run of brackets swallows nothing', () => {
    expect(read(`[\n  {"a": ${'['.repeat(5000)}\n  },\n  {"b": 2}\n]\n`)).toEqual(['2: too_deep', '4 element: {"b":2}'])
  })

  it('reads a log line that starts with [ as a line that is not JSON', () => {
    expect(read('[INF] starting\n{"a":1}\n')).toEqual(['1: bad_json', '2: {"a":1}'])
  })

  it('reports a value over the bound at its start without holding it, and reads what follows', () => {
    const big = JSON.stringify({ list: Array.from({ length: 200 }, (_, i) => i) }, null, 2)
    expect(read(`${big}\n{"after":1}\n`, { max: 500 })).toEqual(['1: line_too_long', `${big.split('\n').length + 1}: {"after":1}`])
  })

  it('reads the same however the input is cut into chunks', () => {
    const text = '{"a":1}\n{\n  "b": [\n    1,\n    2\n  ]\n}\n[\n  {"c": "x\\"}"},\n  {"d" 1},\n  {"e": 3}\n]\n{"f":\n{"g":4}\n'
    const whole = read(text)
    fc.assert(
      fc.property(fc.array(fc.nat(text.length), { maxLength: 10 }), (cuts) => {
        expect(read(text, { cuts })).toEqual(whole)
      }),
      { numRuns: 200 },
    )
  })
})

describe('splitLine', () => {
  it('splits a line of values separated by blanks, and nothing else', () => {
    expect(splitLine('{"a":1} {"b":2}\t[3]')).toEqual(['{"a":1}', '{"b":2}', '[3]'])
    expect(splitLine('{"a":1}')).toBeUndefined()
    expect(splitLine('{"a":1} oops')).toBeUndefined()
  })
})
