/** `l9kit normalize` as one CommonJS file: dist/fast/normalize.cjs (see entry.ts). */
import { normalize } from '../commands/normalize.js'
import { entryOf } from './entry.js'

export const { start, main } = entryOf(normalize)
