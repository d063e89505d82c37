/**
 * A top-level array written on one line (src/jsonl/pieces.ts, LineSplitter's pieces): read
 * element by element as a pretty-printed array is, whatever the chunks and however long the
 * line, holding only the element being read.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { LineItem } from '../../src/jsonl/lines.js'
import { ValueSplitter } from '../../src/jsonl/values.js'

interface Read {
  records: { line: number; offset: number; text: string; element: boolean }[]
  problems: { line: number; message: string }[]
}

function read(input: Buffer | string, options: { max?: number; pieceBytes?: number; cuts?: number[]; chunk?: number } = {}): Read {
  const splitter = new ValueSplitter(options.max ?? 1 << 20, undefined, undefined, { pieceBytes: options.pieceBytes })
  const bytes = typeof input === 'string' ? Buffer.from(input) : input
  const out: LineItem[] = []
  const got: Read = { records: [], problems: [] }
  const drain = () => {
    for (const item of out) {
      if ('error' in item) got.problems.push({ line: item.line, message: item.error.message })
      else got.records.push({ line: item.line, offset: item.offset, text: item.text, element: item.element === true })
    }
    out.length = 0
  }
  const cuts = options.chunk ? Array.from({ length: Math.ceil(bytes.length / options.chunk) }, (_, i) => i * options.chunk!) : [...(options.cuts ?? [])].sort((a, b) => a - b)
  let at = 0
  for (const cut of cuts) {
    if (cut > at && cut < bytes.length) {
      splitter.push(bytes.subarray(at, cut), out)
      drain()
      at = cut
    }
  }
  splitter.push(bytes.subarray(at), out)
  splitter.end(out)
  drain()
  return got
}

const value = fc.jsonValue({ maxDepth: 3 }).filter((v) => v !== undefined)
/** A one-line array as encoders write it: compact, or with a blank after each comma and colon (Python's default). */
const oneLine = (items: unknown[], spaced: boolean) => (spaced ? `[${items.map((v) => JSON.stringify(v, null, 1).replace(/\n\s*/g, ' ')).join(', ')}]` : JSON.stringify(items))

describe('an array on one line', () => {
  it('gives its elements, at their byte offsets, whatever the chunks and whether read whole or in pieces', () => {
    fc.assert(
      fc.property(fc.array(value, { maxLength: 12 }), fc.boolean(), fc.array(fc.nat(4000), { maxLength: 8 }), fc.integer({ min: 1, max: 64 }), (items, spaced, cuts, pieceBytes) => {
        const line = oneLine(items, spaced)
        const text = `{"before":1}\n${line}\n{"after":2}\n`
        const bytes = Buffer.from(text)
        const whole = read(bytes, { cuts })
        const pieces = read(bytes, { cuts, pieceBytes })
        expect(pieces).toEqual(whole)
        expect(whole.problems).toEqual([])
        expect(whole.records.map((r) => JSON.parse(r.text) as unknown)).toEqual([{ before: 1 }, ...(JSON.parse(JSON.stringify(items)) as unknown[]), { after: 2 }])
        const elements = whole.records.slice(1, -1)
        expect(elements.every((r) => r.line === 2 && r.element)).toBe(true)
        // Each element's offset is where its text starts in the input.
        for (const r of elements) expect(bytes.subarray(r.offset, r.offset + Buffer.byteLength(r.text)).toString()).toBe(r.text)
      }),
      { numRuns: 300 },
    )
  })

  it('is never held whole: a line far over the record bound reads, element by element', () => {
    const element = { ip: '192.0.2.1', port: 443, note: 'é'.repeat(40) }
    const count = 40_000
    const line = `[${Array.from({ length: count }, (_, i) => JSON.stringify({ ...element, i })).join(',')}]`
    expect(Buffer.byteLength(line)).toBeGreaterThan(4 << 20)
    // 1 MiB bound, 64 KiB chunks: held whole, the line would be refused as too long.
    const got = read(`${line}\n`, { max: 1 << 20, chunk: 64 * 1024 })
    expect(got.problems).toEqual([])
    expect(got.records.length).toBe(count)
    expect(JSON.parse(got.records[count - 1]!.text)).toEqual({ ...element, i: count - 1 })
  })

  it('reports an element over the bound, a broken element, a cut line, and keeps what came before', () => {
    const big = JSON.stringify({ pad: 'x'.repeat(300) })
    const over = read(`[{"a":1},${big},{"b":2}]\n`, { max: 200, pieceBytes: 16 })
    expect(over.records.map((r) => r.text)).toEqual(['{"a":1}', '{"b":2}'])
    expect(over.problems.map((p) => p.message)).toEqual(['the JSON value starting at line 1 is longer than 200 bytes (raise --max-line-bytes to accept it)'])

    // Chunks of 4 bytes: the line grows past 8 bytes before it ends, so it is read in pieces.
    const broken = read('[{"a":1},{"b":tru},{"c":3}]\n{"d":4}\n', { pieceBytes: 8, chunk: 4 })
    expect(broken.records.map((r) => r.text)).toEqual(['{"a":1}', '{"d":4}'])
    expect(broken.problems).toHaveLength(1)
    expect(broken.problems[0]!.message).toMatch(/not valid JSON.*the rest of line 1 is skipped/)

    const cut = read('[{"a":1},{"b":2},{"c":', { pieceBytes: 8, chunk: 4 })
    expect(cut.records.map((r) => r.text)).toEqual(['{"a":1}', '{"b":2}'])
    expect(cut.problems).toHaveLength(1)
    expect(cut.problems[0]!.line).toBe(1)

    const unclosed = read('[{"a":1},{"b":2}\n', { pieceBytes: 8, chunk: 4 })
    expect(unclosed.records.map((r) => r.text)).toEqual(['{"a":1}', '{"b":2}'])
    expect(unclosed.problems.map((p) => p.message)).toEqual(['not valid JSON: the array has no closing bracket on line 1 (truncated?)'])
  })

  it('reads values after the array on the same line as records of their own', () => {
    expect(read('[1,2] {"a":[3]} [4]\n', { pieceBytes: 2, chunk: 3 }).records.map((r) => `${r.element ? 'e' : 'v'}${r.text}`)).toEqual(['e1', 'e2', 'v{"a":[3]}', 'e4'])
  })
})
