/**
 * Buffer's own UTF-8 and Latin-1 codecs, called without Buffer.write's and Buffer.toString's
 * argument handling (in the export thread that handling cost several times the encoding of a
 * line's short strings: 7 % of its time). Node has had these methods on every Buffer since its
 * first versions, undocumented; where they are missing, the documented calls are used instead.
 */

interface Codecs {
  utf8Write(text: string, at: number, length: number): number
  utf8Slice(start: number, end: number): string
  latin1Slice(start: number, end: number): string
}

const direct = ['utf8Write', 'utf8Slice', 'latin1Slice'].every((name) => typeof (Buffer.prototype as unknown as Record<string, unknown>)[name] === 'function')

/** Writes `text` as UTF-8 into `out` from `at` (as much as fits, as Buffer.write does); the bytes written. */
export const writeUtf8: (out: Buffer, text: string, at: number) => number = direct
  ? (out, text, at) => (out as unknown as Codecs).utf8Write(text, at, out.length - at)
  : (out, text, at) => out.write(text, at)

/** The text of bytes `start`…`end` of `b` as UTF-8. */
export const utf8Text: (b: Buffer, start: number, end: number) => string = direct
  ? (b, start, end) => (b as unknown as Codecs).utf8Slice(start, end)
  : (b, start, end) => b.toString('utf8', start, end)

/** The text of bytes `start`…`end` of `b` as Latin-1 (one character per byte). */
export const latin1Text: (b: Buffer, start: number, end: number) => string = direct
  ? (b, start, end) => (b as unknown as Codecs).latin1Slice(start, end)
  : (b, start, end) => b.toString('latin1', start, end)
