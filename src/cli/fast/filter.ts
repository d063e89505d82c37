/** `l9kit filter` as one CommonJS file: dist/fast/filter.cjs (see entry.ts). */
import { filter } from '../commands/filter.js'
import { entryOf } from './entry.js'

export const { start, main } = entryOf(filter)
