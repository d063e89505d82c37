/**
 * Line and column of a place in the scanned text, worked out only when asked (a host's
 * line, an error), as saxes numbers them: lines from 1, columns from 0 counting characters
 * (a surrogate pair is one), the column of a place being the number of characters before
 * it on its line. Line ends reach the scanner as `\n` only (xml-scanner.ts rewrites the
 * others), so `\n` alone is counted.
 */
export class TextPosition {
  /** Line of `buf[counted]`. */
  private line = 1
  /** Index up to which line ends are counted. */
  private counted = 0
  /** Index of the next `\n` at or after `counted` (-1: none in the buffer; NaN: not looked for). */
  private nextEnd = NaN
  /** Index where the line of `buf[counted]` starts; negative when it started in an earlier buffer. */
  private lineStart = 0
  /** Characters of that line in earlier buffers (when lineStart is negative). */
  private before = 0

  /** Line of `buf[at]`. */
  lineAt(buf: string, at: number): number {
    this.advance(buf, at)
    return this.line
  }

  /** `line:column` of `buf[at]`, as error messages give it. */
  where(buf: string, at: number): string {
    this.advance(buf, at)
    const column = this.lineStart < 0 ? this.before + characters(buf, 0, at) : characters(buf, this.lineStart, at)
    return `${this.line}:${column}`
  }

  /** The buffer is about to be replaced by one that starts with `buf[from…]`. */
  rebase(buf: string, from: number): void {
    this.advance(buf, from)
    const startsThere = this.lineStart === from
    this.before = startsThere ? 0 : this.lineStart < 0 ? this.before + characters(buf, 0, from) : characters(buf, this.lineStart, from)
    this.lineStart = startsThere ? 0 : -1
    this.counted = 0
    this.nextEnd = NaN
  }

  private advance(buf: string, to: number): void {
    // Places are asked in order; one before the last asked gets the last one's line.
    if (to < this.counted) return
    let end = Number.isNaN(this.nextEnd) ? buf.indexOf('\n', this.counted) : this.nextEnd
    while (end !== -1 && end < to) {
      this.line++
      this.lineStart = end + 1
      end = buf.indexOf('\n', end + 1)
    }
    this.nextEnd = end
    this.counted = to
  }
}

/** Characters (code points) of `buf[from, to)`: code units less the second half of each pair. */
function characters(buf: string, from: number, to: number): number {
  let n = to - from
  for (let i = from; i < to; i++) {
    const c = buf.charCodeAt(i)
    if (c >= 0xdc00 && c <= 0xdfff) n--
  }
  return n
}
