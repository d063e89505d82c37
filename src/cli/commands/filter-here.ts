/**
 * `filter`'s own loop, on this thread (`--jobs 1`, and inputs too small or not JSON Lines for
 * the workers). Records are read a chunk's worth at a time (readItems). A line of canonical
 * text takes the short way the workers take (filter-canonical.ts: only the members the query
 * reads are parsed); anything it cannot vouch for is parsed and judged (filter-record.ts), and
 * the lines written are the same. The short way is loaded once the input is seen to be large
 * enough for it to pay (short-way.ts), so a short command stays short.
 */
import { readItems, recordsOf } from '../../jsonl/index.js'
import type { Query } from '../../query/index.js'
import { issueLine } from '../inputs.js'
import type { CanonicalJudge } from './filter-canonical.js'
import { filterDocuments, judgedText } from './filter-record.js'
import { SHORT_WAY_BYTES, SHORT_WAY_RECORDS } from './short-way.js'

/** What the loop keeps from one input to the next: the short way once loaded. */
export interface FilterHereState {
  canonical?: CanonicalJudge
  loading?: Promise<unknown>
  records: number
}

/** Where lines go: matching documents (a JsonlWriter), problems (the command's ProblemLimit). */
interface Sink {
  write(line: string): Promise<void> | undefined
}

/** One input: its bytes, its name in messages, its size when a file. */
interface HereInput {
  stream: AsyncIterable<Uint8Array>
  name: string
  size?: number
}

/** Judges every record of `input`, adding to `counts` and writing matches and problems. */
export async function filterHere(
  input: HereInput,
  query: Query,
  maxLineBytes: number,
  counts: { matched: number; invalid: number },
  sinks: { out: Sink; problems: Sink },
  state: FilterHereState,
): Promise<void> {
  const { out, problems } = sinks
  // (Were it ever not to load, the long way judges every line alike.)
  const wantShortWay = () =>
    (state.loading ??= import('./filter-canonical.js').then(
      (m) => (state.canonical = m.canonicalJudge(query)),
      () => undefined,
    ))
  if (input.size !== undefined && input.size >= SHORT_WAY_BYTES) await wantShortWay()
  for await (const items of readItems(input.stream, { maxLineBytes })) {
    const canonical = state.canonical
    for (const item of items) {
      if (canonical && !('error' in item) && !item.element) {
        const verdict = canonical(item.text)
        if (verdict === false) continue
        if (verdict) {
          counts.matched++
          const pending = out.write(item.text)
          if (pending) await pending
          continue
        }
      }
      for (const record of recordsOf(item)) {
        for (const judged of filterDocuments(record, query)) {
          const { verdict } = judged
          if (verdict === true) {
            counts.matched++
            const pending = out.write(judgedText(record, judged))
            if (pending) await pending
          } else if (verdict !== false) {
            counts.invalid++
            for (const issue of verdict) await problems.write(issueLine(input.name, record.line, issue))
          }
        }
      }
    }
    state.records += items.length
    if (state.records >= SHORT_WAY_RECORDS) void wantShortWay()
  }
}
