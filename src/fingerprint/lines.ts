/** Summary lines as the original splits them, and its case-insensitive prefix test, on bytes. */

/**
 * Summary lines are `\n`-separated, a trailing `\r` dropped; a final `\n` gives a last empty
 * line. Walked without building a list: `newlineAt` gives where the line starting at `start`
 * stops (its `\n`, or the length for the last line), `contentEnd` where its text ends.
 */
export function newlineAt(bytes: Uint8Array, start: number): number {
  for (let i = start; i < bytes.length; i++) if (bytes[i] === 0x0a) return i
  return bytes.length
}

export const contentEnd = (bytes: Uint8Array, start: number, nl: number) => (nl > start && bytes[nl - 1] === 0x0d ? nl - 1 : nl)

/**
 * True when the lower-case form of the line starts with `prefix` (ASCII, lower-case).
 * Matches Go's strings.ToLower rune by rune: besides A–Z, the runes that lower-case to an
 * ASCII letter of our prefixes are only U+0130 (→ i; JavaScript gives "i̇" instead) and
 * U+212A KELVIN SIGN (→ k, in no prefix), so only U+0130 needs care.
 */
export function startsWithLower(bytes: Uint8Array, from: number, to: number, prefix: string): boolean {
  let i = from
  for (let p = 0; p < prefix.length; p++) {
    if (i >= to) return false
    const want = prefix.charCodeAt(p)
    const b = bytes[i]!
    if (b < 0x80) {
      if ((b >= 0x41 && b <= 0x5a ? b + 0x20 : b) !== want) return false
      i++
    } else if (want === 0x69 && b === 0xc4 && bytes[i + 1] === 0xb0 && i + 2 <= to) {
      i += 2 // U+0130 LATIN CAPITAL LETTER I WITH DOT ABOVE
    } else return false
  }
  return true
}
