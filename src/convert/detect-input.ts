/**
 * `--from auto`'s look at an input. First its head (DETECT_BYTES, registry.ts): enough for
 * every line format and for JSON records that fit in it. A JSON input whose head no format
 * recognises is then read on, a record at a time, as far as it must: a pretty-printed document
 * whose identifying member lies past the head (Shodan writes a host look-up's members in any
 * order) is recognised from the whole record, by the formats' claims (common/claims.ts). The
 * look ends at the first record a format claims, after LATER_RECORDS records, or once it has
 * held the record size limit (`--max-line-bytes`), so its memory is bounded by that limit.
 * What was read is given back in front of the rest of the input.
 */
import { type LineItem, parseRecord, ValueSplitter } from '../jsonl/index.js'
import { toBuffer } from '../jsonl/lines.js'
import { jsonHead, LOG_LINE } from './common/records.js'
import { obj } from './common/values.js'
import { type Guess, guessFormat } from './guess.js'
import { CONVERTERS, peekHead, replayed } from './registry.js'

/** What `auto` saw of an input: its head, the guess (undefined: no format recognises it), and the whole input again. */
export interface Detected {
  head: string
  guess: Guess | undefined
  stream: AsyncIterable<Uint8Array>
}

/** Records read past the head, at most, for one a format claims. */
const LATER_RECORDS = 200

/** Looks at `input` as `--from auto` does; `maxRecordBytes` bounds what is held. */
export async function detectInput(input: AsyncIterable<Uint8Array>, maxRecordBytes: number): Promise<Detected> {
  const peeked = await peekHead(input)
  const guess = guessFormat(peeked.head)
  if (guess !== undefined || jsonHead(peeked.head) === undefined) return { head: peeked.head, guess, stream: peeked.stream }
  const ahead = await claimedRecord(peeked.stream, maxRecordBytes)
  return { head: peeked.head, guess: ahead.guess, stream: ahead.stream }
}

/** Reads records from the start of `input` until a format claims one (see the module comment). */
async function claimedRecord(input: AsyncIterable<Uint8Array>, maxRecordBytes: number): Promise<{ guess: Guess | undefined; stream: AsyncIterable<Uint8Array> }> {
  const iterator = input[Symbol.asyncIterator]()
  const held: Uint8Array[] = []
  let size = 0
  let records = 0
  let done = false
  let guess: Guess | undefined
  const splitter = new ValueSplitter(maxRecordBytes)
  const out: LineItem[] = []
  while (guess === undefined && !done && records < LATER_RECORDS && size <= maxRecordBytes) {
    const next = await iterator.next()
    if (next.done) {
      done = true
      splitter.end(out)
    } else {
      held.push(next.value)
      size += next.value.length
      splitter.push(toBuffer(next.value), out)
    }
    for (const item of out) {
      if ('error' in item || LOG_LINE.test(item.text)) continue
      records++
      const parsed = parseRecord(item.text)
      const record = 'value' in parsed ? obj(parsed.value) : undefined
      const claimed = record && CONVERTERS.find((c) => c.records !== undefined && c.records.claims(record))
      if (claimed) {
        guess = { converter: claimed, line: item.line }
        break
      }
      if (records >= LATER_RECORDS) break
    }
    out.length = 0
  }
  return { guess, stream: replayed(held, done ? undefined : iterator) }
}
