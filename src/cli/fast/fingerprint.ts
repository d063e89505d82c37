/** `l9kit fingerprint` as one CommonJS file: dist/fast/fingerprint.cjs (see entry.ts). */
import { fingerprint } from '../commands/fingerprint.js'
import { entryOf } from './entry.js'

export const { start, main } = entryOf(fingerprint)
