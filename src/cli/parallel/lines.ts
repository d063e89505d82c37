/** The lines of one block, in a worker: numbered and placed as in the whole input. */
import { type LineItem, LineSplitter, tooLong } from '../../jsonl/lines.js'
import type { Block } from './types.js'

/** Opens every block: three empty lines (see linesOf). */
export const OPENING = Buffer.from('\n\n\n')
/** Line numbers and offsets of a block's lines, read after OPENING, are this far from their place. */
export const OPENING_LINES = 3

/** A piece of a block as a Buffer over the same memory. */
export const asBuffer = (part: Uint8Array) => Buffer.from(part.buffer, part.byteOffset, part.byteLength)

/** The line items of a block, exactly as LineSplitter gives them when it reads the whole input. */
export function linesOf(block: Block, maxLineBytes: number): LineItem[] {
  if (block.tooLong) return [{ line: block.firstLine, offset: block.firstOffset, error: tooLong(maxLineBytes) }]
  const items: LineItem[] = []
  const splitter = new LineSplitter(maxLineBytes)
  // The splitter skips a byte order mark at the start of what it reads first; the main thread
  // has dropped the input's own already. So the block comes after empty lines (counted by
  // the splitter, and taken off the numbers below), and bytes that look like a mark stay data.
  // Three of them, so that the splitter need not join its first chunk to the next one.
  splitter.push(OPENING, items)
  for (const part of block.parts) splitter.push(asBuffer(part), items)
  splitter.end(items)
  const lineShift = block.firstLine - 1 - OPENING_LINES
  const offsetShift = block.firstOffset - OPENING.length
  for (const item of items) {
    item.line += lineShift
    item.offset += offsetShift
  }
  return items
}
