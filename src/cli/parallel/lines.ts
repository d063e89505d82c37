/** The records of one block, in a worker: numbered and placed as in the whole input. */
import { type LineMaker, tooLong } from '../../jsonl/lines.js'
import { decodeUtf8, lastDecodeInvalid } from '../../jsonl/utf8.js'
import { type RecordMaker, tooLarge, ValueSplitter } from '../../jsonl/values.js'
import type { Block, BlockLine, BlockLineItem } from './types.js'

/** Opens every block: three empty lines (see linesOf). */
export const OPENING = Buffer.from('\n\n\n')
/** Line numbers and offsets of a block's lines, read after OPENING, are this far from their place. */
export const OPENING_LINES = 3

/**
 * Bytes split into lines at a time: the lines of a whole block are not decoded at once, so that
 * few of their strings are alive when the young generation is collected (see output.ts).
 */
const PIECE_BYTES = 64 * 1024

const NL = 0x0a

/**
 * A line's text, as the sequential reader decodes it, and its bytes when the text encodes back
 * to them: valid UTF-8 decodes with no U+FFFD but those it holds. Bytes that are not valid
 * UTF-8 get U+FFFD in their text (utf8.ts), so the text, not the bytes, is what is written.
 */
const blockLine: LineMaker<BlockLine> = (line, offset, buf, from, to) => {
  const text = decodeUtf8(buf, from, to)
  const bytes = buf.subarray(from, to)
  return lastDecodeInvalid ? { line, offset, text, bytes: undefined, invalidUtf8: true } : { line, offset, text, bytes }
}

/** A record that is not one whole line (a value spread over lines, an element): text only. */
const blockRecord: RecordMaker<BlockLine> = (line, offset, text, element) => (element ? { line, offset, text, bytes: undefined, element } : { line, offset, text, bytes: undefined })

/** A piece of a block as a Buffer over the same memory. */
export const asBuffer = (part: Uint8Array) => Buffer.from(part.buffer, part.byteOffset, part.byteLength)

/**
 * The record items of a block, exactly as ValueSplitter gives them when it reads the whole
 * input (blocks start where a record does: blocks.ts).
 */
export function* linesOf(block: Block, maxLineBytes: number, elements = true): Generator<BlockLineItem> {
  if (block.tooLong) {
    yield { line: block.firstLine, offset: block.firstOffset, error: block.tooLong === 'value' ? tooLarge(maxLineBytes, block.firstLine) : tooLong(maxLineBytes) }
    return
  }
  const items: BlockLineItem[] = []
  const splitter = new ValueSplitter(maxLineBytes, blockLine, blockRecord, { elements })
  // The splitter skips a byte order mark at the start of what it reads first; the main thread
  // has dropped the input's own already. So the block comes after empty lines (counted by
  // the splitter, and taken off the numbers below), and bytes that look like a mark stay data.
  // Three of them, so that the splitter need not join its first chunk to the next one.
  splitter.push(OPENING, items)
  const lineShift = block.firstLine - 1 - OPENING_LINES
  const offsetShift = block.firstOffset - OPENING.length
  function* placed(): Generator<BlockLineItem> {
    for (const item of items) {
      item.line += lineShift
      item.offset += offsetShift
      yield item
    }
    items.length = 0
  }
  for (const part of block.parts) {
    const bytes = asBuffer(part)
    // Pieces end after a newline, so the splitter holds no copy of a line between them.
    for (let at = 0; at < bytes.length; ) {
      const nl = at + PIECE_BYTES < bytes.length ? bytes.indexOf(NL, at + PIECE_BYTES) : -1
      const end = nl === -1 ? bytes.length : nl + 1
      splitter.push(bytes.subarray(at, end), items)
      yield* placed()
      at = end
    }
  }
  splitter.end(items)
  yield* placed()
}
