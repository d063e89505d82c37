/**
 * `validate`'s own loop, on this thread (`--jobs 1`, and inputs too small or not JSON Lines for
 * the workers). Records are read a chunk's worth at a time (readItems) and judged without an
 * await each. A line of canonical text takes the short way the workers take
 * (validate-canonical.ts: one pass of the canonical pattern, no parse, no validator, so neither
 * the nesting guard nor the integer-spelling look is needed); anything it cannot vouch for is
 * parsed and judged, and the lines written are the same. The short way's code is loaded once
 * the input is seen to be large enough for it to pay (a short command stays short).
 */
import { readItems, recordsOf } from '../../jsonl/index.js'
import type { Judge } from '../../validate/load-judge.js'
import type { quietCanonical } from './validate-canonical.js'
import { documentsOf, judgeFor, type ValidateSettings, validateRecord } from './validate-record.js'
import { SHORT_WAY_BYTES, SHORT_WAY_RECORDS } from './short-way.js'

/** What the loop keeps from one input to the next: the judge, the short way once loaded. */
export interface HereState {
  judge?: Judge
  quiet?: typeof quietCanonical
  loading?: Promise<unknown>
  records: number
}

export const hereState = (): HereState => ({ records: 0 })

/** Where problem lines go (the command's ProblemLimit). */
interface Problems {
  write(line: string): Promise<void> | void
}

/** One input: its bytes, its name in messages, its size when a file. */
interface HereInput {
  stream: AsyncIterable<Uint8Array>
  name: string
  size?: number
}

/** Judges every record of `input`, adding to `counts` and writing problems. */
export async function validateHere(
  input: HereInput,
  settings: ValidateSettings,
  maxLineBytes: number,
  counts: { valid: number; invalid: number },
  problems: Problems,
  state: HereState,
): Promise<void> {
  const judge = (state.judge ??= await judgeFor(settings))
  // The short way vouches for event documents only.
  const event = (settings.document ?? 'event') === 'event'
  // (Were it ever not to load, the long way judges every line alike.)
  const wantShortWay = () => (state.loading ??= import('./validate-canonical.js').then((m) => (state.quiet = m.quietCanonical), () => undefined))
  if (event && input.size !== undefined && input.size >= SHORT_WAY_BYTES) await wantShortWay()
  for await (const items of readItems(input.stream, { maxLineBytes, arrayElements: settings.arrays })) {
    const quiet = state.quiet
    for (const item of items) {
      // A line whose bytes were not UTF-8 has something to say (validate-record.ts): the long way.
      if (quiet && !('error' in item) && !item.invalidUtf8 && quiet(item.text, settings)) {
        counts.valid++
        continue
      }
      for (const record of recordsOf(item)) {
        for (const document of documentsOf(record, settings)) {
          const { ok, lines } = validateRecord(document, input.name, settings, judge)
          if (ok) counts.valid++
          else counts.invalid++
          for (const line of lines) await problems.write(line)
        }
      }
    }
    state.records += items.length
    if (event && state.records >= SHORT_WAY_RECORDS) void wantShortWay()
  }
}
