/** `l9kit convert` as one CommonJS file: dist/fast/convert.cjs (see entry.ts). */
import { convert } from '../commands/convert.js'
import { entryOf } from './entry.js'

export const { start, main } = entryOf(convert)
