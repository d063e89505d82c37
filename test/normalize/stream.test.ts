import { describe, expect, it } from 'vitest'
import { normalizeRecords } from '../../src/normalize/index.js'
import { emptyEvent } from '../../src/schema/index.js'
import { chunks } from '../support/streams.js'

const canonical = JSON.stringify(emptyEvent())

async function collect(...parts: string[]) {
  const out: { line: number; ok: boolean; text: string; changed?: boolean; codes?: string[] }[] = []
  for await (const r of normalizeRecords(chunks(...parts), { maxLineBytes: 4096 })) {
    out.push(r.result.ok ? { line: r.line, ok: true, text: r.result.text, changed: r.result.changed } : { line: r.line, ok: false, text: r.text, codes: r.result.errors.map((e) => e.code) })
  }
  return out
}

describe('normalizeRecords', () => {
  it('reads JSON Lines with a BOM, CRLF, blank lines and a bad line, split anywhere', async () => {
    const input = `\uFEFF${canonical}\r\n\r\n{"port":22}\n{oops\n${'x'.repeat(5000)}\n${canonical}`
    const cuts = [1, 7, 100, input.length - 3]
    const parts = cuts.map((cut, i) => input.slice(cuts[i - 1] ?? 0, cut)).concat(input.slice(cuts[cuts.length - 1]))
    const out = await collect(...parts)
    expect(out.map((r) => [r.line, r.ok, r.changed ?? r.codes])).toEqual([
      [1, true, false],
      [3, true, true],
      [4, false, ['bad_json']],
      [5, false, ['line_too_long']],
      [6, true, false],
    ])
    expect(out[0]!.text).toBe(canonical)
    expect(JSON.parse(out[1]!.text).port).toBe('22')
    expect(out[2]!.text).toBe('{oops')
  })

  it('reads one JSON document spread over lines, and a JSON array element by element', async () => {
    const one = await collect(JSON.stringify({ port: 1 }, null, 2))
    expect(one.map((r) => [r.line, r.ok])).toEqual([[1, true]])
    const many = await collect('[\n  {"port": 1},\n\n  {"port": 2}, 3\n]\n')
    expect(many.map((r) => [r.line, r.ok])).toEqual([
      [2, true],
      [4, true],
      [4, false],
    ])
  })

  it('yields nothing for an empty input', async () => {
    expect(await collect()).toEqual([])
    expect(await collect('\n\n')).toEqual([])
  })
})
