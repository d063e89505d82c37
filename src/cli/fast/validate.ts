/** `l9kit validate` as one CommonJS file: dist/fast/validate.cjs (see entry.ts). */
import { validate } from '../commands/validate.js'
import { entryOf } from './entry.js'

export const { start, main } = entryOf(validate)
