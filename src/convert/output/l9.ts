/** Event documents as JSON Lines, compact, in canonical member order. */
import { eventSerializer, serializeEvent, type WriteOptions } from '../../normalize/index.js'
import type { Output } from './types.js'

/** `--to l9`. */
export const l9Output: Output = {
  name: 'l9',
  description: 'event documents, one per line (the default)',
  eol: '\n',
  format: serializeEvent,
}

/** `--to l9` with write options (`--header-order`, `--escape`). */
export const l9OutputWith = (write: WriteOptions): Output => ({ ...l9Output, format: eventSerializer(write) })
