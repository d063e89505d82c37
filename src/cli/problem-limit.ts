/**
 * `--max-errors N`: a bad input can give thousands of problem lines; past the first N they
 * are counted, not written, and the command ends its report with how many more there were.
 * The exit status does not change. It sits between a command and the writer of its problem
 * stream, so lines from `--jobs` workers (whole blocks of lines) are cut at the same place as
 * lines written one by one.
 */
import type { LineSink } from './parallel/run.js'

export class ProblemLimit implements LineSink {
  private shown = 0
  /** Lines counted but not written. */
  notShown = 0

  /** `max` undefined: no limit, every line goes through. */
  constructor(
    private readonly sink: LineSink,
    readonly max: number | undefined,
  ) {}

  /** Writes `text` (one line, or several joined by newlines) as far as the limit allows. */
  write(text: string): Promise<void> | undefined {
    if (this.max === undefined) return this.sink.write(text)
    const room = this.max - this.shown
    const lines = text.split('\n')
    if (lines.length <= room) {
      this.shown += lines.length
      return this.sink.write(text)
    }
    this.notShown += lines.length - Math.max(room, 0)
    if (room <= 0) return undefined
    this.shown += room
    return this.sink.write(lines.slice(0, room).join('\n'))
  }

  /** Writes bytes holding whole lines, newlines included, as far as the limit allows. */
  writeBytes(bytes: Uint8Array, written?: () => void): Promise<void> | undefined {
    if (this.max === undefined) return this.sink.writeBytes(bytes, written)
    let room = this.max - this.shown
    let end = 0
    for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, at + 1)) {
      if (room > 0) {
        room--
        end = at + 1
        this.shown++
      } else this.notShown++
    }
    if (end === 0) {
      written?.()
      return undefined
    }
    return this.sink.writeBytes(end === bytes.length ? bytes : bytes.subarray(0, end), written)
  }

  /** The closing line when lines were held back (`undefined` when none were). */
  note(what = 'problem lines'): string | undefined {
    if (this.notShown === 0) return undefined
    return `… ${this.notShown} more ${what} not shown (--max-errors ${this.max})`
  }
}
