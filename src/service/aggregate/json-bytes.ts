/**
 * Reading compact JSON in place, byte by byte, as the stores keep it (JSON.stringify's text: a
 * `"` inside a string is always escaped). The index functions answer -1 when the bytes are not
 * what they read (the caller then reads the document the ordinary way).
 */

export const QUOTE = 0x22
export const BACKSLASH = 0x5c

/** A literal's bytes (the literals here are ASCII). */
export const bytesOf = (text: string) => Buffer.from(text, 'latin1')

/** Whether `literal`'s bytes are at `at`. */
export function startsWith(b: Buffer, at: number, literal: Buffer): boolean {
  if (at < 0 || at + literal.length > b.length) return false
  for (let i = 0; i < literal.length; i++) if (b[at + i] !== literal[i]) return false
  return true
}

/** The index of the quote closing a string whose content starts at `from`; -1 if none. */
export function stringEnd(b: Buffer, from: number): number {
  // Most strings here are short: looked at byte by byte first (cheaper than a call to indexOf).
  const near = Math.min(from + 48, b.length)
  for (let i = from; i < near; i++) {
    const c = b[i]
    if (c === QUOTE) return i
    if (c === BACKSLASH) i++
  }
  let at = near
  for (;;) {
    const quote = b.indexOf(QUOTE, at)
    if (quote < 0) return -1
    let slashes = 0
    for (let k = quote - 1; k >= from && b[k] === BACKSLASH; k--) slashes++
    if ((slashes & 1) === 0) return quote
    at = quote + 1
  }
}

/** The value of the string whose quotes are at `open` and `close`. */
export function stringAt(b: Buffer, open: number, close: number): string {
  const raw = b.toString('utf8', open + 1, close)
  return raw.includes('\\') ? (JSON.parse(b.toString('utf8', open, close + 1)) as string) : raw
}

/**
 * stringAt for a member whose value mostly repeats from one document to the next (a plugin's
 * name, a port): the last value's bytes are kept (a copy: the buffers read are used again), and
 * bytes equal to them give the same string without decoding.
 */
export class RepeatedText {
  private readonly last = new Uint8Array(64)
  private length = -1
  private text = ''

  read(b: Buffer, open: number, close: number): string {
    const n = close - open - 1
    if (n === this.length) {
      let same = true
      for (let i = 0; i < n; i++) {
        if (b[open + 1 + i] !== this.last[i]) {
          same = false
          break
        }
      }
      if (same) return this.text
    }
    this.text = stringAt(b, open, close)
    if (n <= this.last.length) {
      // Byte by byte: cheaper than a view and a copy for these few bytes.
      for (let i = 0; i < n; i++) this.last[i] = b[open + 1 + i]!
      this.length = n
    } else this.length = -1
    return this.text
  }
}

/** The index after a number starting at `at`, or -1. */
export function numberEnd(b: Buffer, at: number): number {
  const start = at
  for (let c = b[at]; c !== undefined && ((c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45); c = b[++at]);
  return at > start ? at : -1
}

/** The index after an array of strings starting at `at`, or -1. */
export function textsEnd(b: Buffer, at: number): number {
  if (b[at++] !== 0x5b) return -1
  if (b[at] === 0x5d) return at + 1
  for (;;) {
    if (b[at] !== QUOTE) return -1
    const end = stringEnd(b, at + 1)
    if (end < 0) return -1
    at = end + 1
    if (b[at] === 0x5d) return at + 1
    if (b[at++] !== 0x2c) return -1
  }
}

/** The index after the JSON value (compact, as stored) starting at `at`; -1 if it is not one. */
export function valueEnd(b: Buffer, at: number): number {
  const c = b[at]
  if (c === QUOTE) {
    const end = stringEnd(b, at + 1)
    return end < 0 ? -1 : end + 1
  }
  if (c !== 0x7b && c !== 0x5b) {
    // A number, true, false or null: up to the next delimiter.
    const start = at
    while (at < b.length && b[at] !== 0x2c && b[at] !== 0x7d && b[at] !== 0x5d) at++
    return at > start ? at : -1
  }
  let depth = 0
  for (; at < b.length; at++) {
    const x = b[at]
    if (x === QUOTE) {
      at = stringEnd(b, at + 1)
      if (at < 0) return -1
    } else if (x === 0x7b || x === 0x5b) depth++
    else if (x === 0x7d || x === 0x5d) {
      if (--depth === 0) return at + 1
    }
  }
  return -1
}

/** Whether the members from `at` (each `,"name":value`) run to the document's last byte, its closing brace. */
export function closesDocument(b: Buffer, at: number): boolean {
  while (b[at] === 0x2c) {
    if (b[at + 1] !== QUOTE) return false
    const nameEnd = stringEnd(b, at + 2)
    if (nameEnd < 0 || b[nameEnd + 1] !== 0x3a) return false
    at = valueEnd(b, nameEnd + 2)
    if (at < 0) return false
  }
  return b[at] === 0x7d && at === b.length - 1
}
