/**
 * Sorting in the page gives the server's order (property): for any rows and any sort, ordering
 * by the ranks sortRanks writes on each row (what the page's script does) equals sortRows.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { findingRow } from '../../../src/service/web/rows.js'
import { SORT_KEYS, sortRanks, sortRows } from '../../../src/service/web/sort.js'
import { makeEvent } from '../support.js'

const row = fc
  .record({
    severity: fc.constantFrom('critical', 'high', 'info', '', 'weird'),
    type: fc.constantFrom('a', 'b', ''),
    summary: fc.constantFrom('x', 'y', 'x\ny'),
    source: fc.constantFrom('P1', 'P2'),
    port: fc.constantFrom('', '80', '443', '8080'),
    ip: fc.constantFrom('192.0.2.1', '192.0.2.10', '2001:db8::1'),
    fp: fc.constantFrom('a', 'b'),
    first: fc.integer({ min: 0, max: 40 }),
    span: fc.integer({ min: 0, max: 3 }),
    n: fc.integer({ min: 0, max: 1_000_000 }),
  })
  .map((r) => {
    const e = makeEvent({ event_type: 'leak', event_source: r.source, port: r.port, ip: r.ip, summary: r.summary, event_fingerprint: r.fp.repeat(64), host: `h${r.n}.test` })
    e.leak = { ...e.leak, severity: r.severity, type: r.type }
    const day = (d: number) => new Date(Date.UTC(2024, 0, 1) + d * 43_200_000).toISOString().replace('.000Z', 'Z')
    return findingRow({ json: Buffer.from(JSON.stringify(e)), firstSeen: day(r.first), lastSeen: day(r.first + r.span) })
  })

describe('sorting in the page', () => {
  it('orders rows by their ranks exactly as the server sorts them, for every key and direction', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 12 }), fc.constantFrom(...SORT_KEYS), fc.constantFrom('asc' as const, 'desc' as const), (rows, key, dir) => {
        const ranks = sortRanks(rows, SORT_KEYS)
        const col = SORT_KEYS.indexOf(key) + 1
        const sign = dir === 'asc' ? 1 : -1
        const byRanks = [...rows].sort((a, b) => {
          const x = ranks.get(a)!.split(' ').map(Number)
          const y = ranks.get(b)!.split(' ').map(Number)
          return sign * (x[col]! - y[col]!) || x[0]! - y[0]!
        })
        expect(byRanks.map((r) => r.key)).toEqual(sortRows([...rows], { key, dir }).map((r) => r.key))
      }),
      { numRuns: 300 },
    )
  })
})
