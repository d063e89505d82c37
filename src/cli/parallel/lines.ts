/** The lines of one block, in a worker: numbered and placed as in the whole input. */
import { type LineItem, LineSplitter, tooLong } from '../../jsonl/lines.js'
import type { Block } from './types.js'

const NEWLINE = Buffer.from('\n')

/** The line items of a block, exactly as LineSplitter gives them when it reads the whole input. */
export function linesOf(block: Block, maxLineBytes: number): LineItem[] {
  if (block.tooLong) return [{ line: block.firstLine, offset: block.firstOffset, error: tooLong(maxLineBytes) }]
  const items: LineItem[] = []
  const splitter = new LineSplitter(maxLineBytes)
  // The splitter skips a byte order mark at the start of what it reads first; the main thread
  // has dropped the input's own already. So the block comes after an empty line (counted by
  // the splitter, and taken off the numbers below), and bytes that look like a mark stay data.
  splitter.push(NEWLINE, items)
  splitter.push(Buffer.from(block.bytes), items)
  splitter.end(items)
  for (const item of items) {
    item.line += block.firstLine - 2
    item.offset += block.firstOffset - 1
  }
  return items
}
