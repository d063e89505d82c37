/**
 * Decoding input bytes as UTF-8 the way the original Go tools do: each byte of an invalid
 * sequence becomes its own U+FFFD. Node's decoder (like a browser's) replaces a truncated
 * sequence such as `E2 82` with one U+FFFD instead, so the same bad input would give other
 * bytes than the original tools write (docs/specification.md). Valid input is decoded by Node as is.
 */
import { isUtf8 } from 'node:buffer'
import type { Issue } from '../validate/issue.js'

const REPLACEMENT = '\ufffd'

/**
 * The problem of a record some of whose bytes were not UTF-8 (each read as U+FFFD): a warning
 * where it is read as it is (normalize, lenient validate), an error where text must be canonical
 * (strict validate).
 */
export const invalidUtf8Issue = (): Issue => ({
  code: 'bad_utf8',
  pointer: '',
  message: 'bytes that are not UTF-8 were read as U+FFFD, one for each byte (as the original tools read them)',
  expected: 'UTF-8 text',
})

/**
 * Whether the last decodeUtf8() met bytes that are not UTF-8 (read it right after the call: a
 * line reader marks such lines without looking at their text a second time).
 */
export let lastDecodeInvalid = false

/** The text of `buf` from `from` to `to`, one U+FFFD per byte that is not part of valid UTF-8. */
export function decodeUtf8(buf: Buffer, from = 0, to = buf.length): string {
  const text = buf.toString('utf8', from, to)
  // A U+FFFD in the text is either in the input or a replacement: only then look closer.
  lastDecodeInvalid = text.includes(REPLACEMENT) && !isUtf8(buf.subarray(from, to))
  return lastDecodeInvalid ? perByte(buf, from, to) : text
}

function perByte(buf: Buffer, from: number, to: number): string {
  let out = ''
  let run = from // start of the current run of valid bytes
  let at = from
  while (at < to) {
    const size = sequenceLength(buf, at, to)
    if (size > 0) {
      at += size
      continue
    }
    out += buf.toString('utf8', run, at) + REPLACEMENT
    run = ++at
  }
  return out + buf.toString('utf8', run, to)
}

const isTail = (b: number | undefined) => b !== undefined && (b & 0xc0) === 0x80

/**
 * Length of the valid UTF-8 sequence at `at`, or 0 when its first byte starts none (Go's
 * `utf8.DecodeRune`: no overlong forms, no surrogates, nothing above U+10FFFF).
 */
function sequenceLength(buf: Buffer, at: number, to: number): number {
  const b = buf[at]!
  if (b < 0x80) return 1
  const b1 = at + 1 < to ? buf[at + 1] : undefined
  if (b >= 0xc2 && b <= 0xdf) return isTail(b1) ? 2 : 0
  const b2 = at + 2 < to ? buf[at + 2] : undefined
  if (b >= 0xe0 && b <= 0xef) {
    const low = b === 0xe0 ? 0xa0 : 0x80
    const high = b === 0xed ? 0x9f : 0xbf
    return b1 !== undefined && b1 >= low && b1 <= high && isTail(b2) ? 3 : 0
  }
  if (b >= 0xf0 && b <= 0xf4) {
    const b3 = at + 3 < to ? buf[at + 3] : undefined
    const low = b === 0xf0 ? 0x90 : 0x80
    const high = b === 0xf4 ? 0x8f : 0xbf
    return b1 !== undefined && b1 >= low && b1 <= high && isTail(b2) && isTail(b3) ? 4 : 0
  }
  return 0
}
