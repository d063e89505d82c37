import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { readLines, readRecords } from '../../src/jsonl/index.js'
import { chunks } from '../support/streams.js'

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const x of it) out.push(x)
  return out
}

describe('readLines', () => {
  it('handles a BOM, CRLF, blank lines and a last line without newline', async () => {
    const items = await collect(readLines(chunks('\uFEFFa\r\n\r\n  \nb\nc')))
    expect(items).toEqual([
      { line: 1, offset: 3, text: 'a', crlf: true }, // (said: normalize --check names such a line)
      { line: 4, offset: 11, text: 'b' },
      { line: 5, offset: 13, text: 'c' },
    ])
  })

  it('joins a line split across chunks, including inside a multi-byte character', async () => {
    const euro = Buffer.from('€', 'utf8')
    const items = await collect(readLines(chunks('x', euro.subarray(0, 1), euro.subarray(1), 'y\nz\n')))
    expect(items.map((i) => ('text' in i ? i.text : ''))).toEqual(['x€y', 'z'])
  })

  it('reports a line over the bound and goes on with the next', async () => {
    const long = 'x'.repeat(100)
    const items = await collect(readLines(chunks('ok\n', long.slice(0, 40), long.slice(40), '\nafter\n'), { maxLineBytes: 50 }))
    expect(items[0]).toMatchObject({ line: 1, text: 'ok' })
    expect(items[1]).toMatchObject({ line: 2, error: { code: 'line_too_long' } })
    expect(items[2]).toMatchObject({ line: 3, text: 'after' })
  })

  it('strips a byte order mark that arrives split over the first chunks', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf])
    const got = await collect(readLines(chunks(bom.subarray(0, 1), bom.subarray(1, 2), Buffer.from([0xbf, 0x61, 0x0a, 0x62]))))
    expect(got.map((i) => ('text' in i ? i.text : '?'))).toEqual(['a', 'b'])
    expect(got.map((i) => i.line)).toEqual([1, 2])
    expect((await collect(readLines(chunks(Buffer.from('a'))))).map((i) => ('text' in i ? i.text : '?'))).toEqual(['a'])
  })

  it('splits any chunking of the same text into the same lines', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ unit: 'grapheme', maxLength: 8 }), { maxLength: 10 }), fc.array(fc.nat(40), { maxLength: 5 }), async (lines, cuts) => {
        const text = lines.map((l) => l.replace(/[\r\n]/g, '')).join('\n')
        const bytes = Buffer.from(text, 'utf8')
        const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)
        const parts: Uint8Array[] = []
        let at = 0
        for (const p of points) {
          parts.push(bytes.subarray(at, p))
          at = p
        }
        parts.push(bytes.subarray(at))
        const got = (await collect(readLines(chunks(...parts)))).map((i) => ('text' in i ? i.text : '?'))
        // A byte order mark at the very start is not part of the first line, however the bytes are cut.
        // Blank lines (spaces, tabs and CR only; not every Unicode space) are skipped.
        const want = text.replace(/^\uFEFF/, '').split('\n').filter((l) => !/^[ \t\r]*$/.test(l))
        expect(got).toEqual(want)
      }),
      { numRuns: 150 },
    )
  })
})

describe('readRecords', () => {
  it('reads JSON Lines and survives a malformed line', async () => {
    const records = await collect(readRecords(chunks('{"a":1}\n{oops\n[2]\n')))
    // An array on a line is read as a pretty-printed one is: its elements are the records.
    expect(records.map((r) => ('value' in r ? r.value : r.error.code))).toEqual([{ a: 1 }, 'bad_json', 2])
    expect(records.map((r) => r.line)).toEqual([1, 2, 3])
    const whole = await collect(readRecords(chunks('[2]\n'), { arrayElements: false }))
    expect(whole.map((r) => ('value' in r ? r.value : r.error.code))).toEqual([[2]])
  })

  it('reads one pretty-printed document', async () => {
    const records = await collect(readRecords(chunks('\n{\n  "a": 1,\n  "b": [1, 2]\n}\n')))
    expect(records).toHaveLength(1)
    expect(records[0]).toMatchObject({ line: 2, value: { a: 1, b: [1, 2] } })
  })

  it('reads a JSON array file, one record per element with its line', async () => {
    const records = await collect(readRecords(chunks('[\n  {"a": "x,]"},\n  {\n    "b": 2\n  }\n]\n')))
    expect(records.map((r) => ('value' in r ? r.value : null))).toEqual([{ a: 'x,]' }, { b: 2 }])
    expect(records.map((r) => r.line)).toEqual([2, 3])
  })

  it('with arrayElements false reads a JSON array file as one record; a broken one as one error', async () => {
    const whole = await collect(readRecords(chunks('[\n  {"a": 1},\n  {"b": 2}\n]\n'), { arrayElements: false }))
    expect(whole).toEqual([expect.objectContaining({ line: 1, value: [{ a: 1 }, { b: 2 }] })])
    const broken = await collect(readRecords(chunks('[\n  {"a": 1},\n  {"b" 2},\n  {"c": 3}\n]\n'), { arrayElements: false }))
    // One record, named at the element it breaks in.
    expect(broken).toEqual([expect.objectContaining({ line: 3, error: expect.objectContaining({ code: 'bad_json' }) })])
  })

  it('reports each bad line of a broken multi-line document', async () => {
    const records = await collect(readRecords(chunks('{\n"a": 1,\n}\n')))
    expect(records.every((r) => 'error' in r)).toBe(true)
    expect(records.map((r) => r.line)).toEqual([1, 2, 3])
  })

  it('accepts a 50 MB line when the bound allows it', async () => {
    const big = JSON.stringify({ summary: 'x'.repeat(50 * 1024 * 1024) })
    const records = await collect(readRecords(chunks(big.slice(0, 1e6), big.slice(1e6), '\n{"b":1}\n')))
    expect(records).toHaveLength(2)
    expect((records[0] as { value: { summary: string } }).value.summary).toHaveLength(50 * 1024 * 1024)
  })

  it('refuses a line over --max-line-bytes with a clear error and keeps the rest', async () => {
    const records = await collect(readRecords(chunks('{"a":1}\n', `{"s":"${'x'.repeat(2000)}"}\n`, '{"b":2}\n'), { maxLineBytes: 1000 }))
    expect(records.map((r) => ('value' in r ? 'ok' : r.error.code))).toEqual(['ok', 'line_too_long', 'ok'])
  })
})

describe('readRecords mode choice', () => {
  it('reads a log line that starts with [ as a bad line of JSON Lines, not as a document', async () => {
    const records = await collect(readRecords(chunks('[INF] starting\n{"a":1}\n')))
    expect(records.map((r) => ('value' in r ? r.value : r.error.code))).toEqual(['bad_json', { a: 1 }])
  })
})
