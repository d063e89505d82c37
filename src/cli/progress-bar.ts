/** The progress bar of the commands that read files (convert, validate, normalize, fingerprint): on stderr, only for files, redrawn at most every 100 ms. */
import type { Writable } from 'node:stream'
import { printable } from '../validate/printable.js'

const WIDTH = 30
const EVERY_MS = 100

/** A one-line bar: name, filled share, percent, MB read of MB. */
export class ProgressBar {
  private done = 0
  private last = 0
  private shown = false

  constructor(
    private readonly stderr: Writable,
    private readonly name: string,
    private readonly total: number,
  ) {}

  /**
   * Passes the chunks through, counting their bytes; `read`, when given, says instead how
   * much of the file has been read (a gzip file's compressed bytes, which `total` counts).
   */
  async *track(input: AsyncIterable<Uint8Array>, read?: () => number): AsyncGenerator<Uint8Array> {
    for await (const chunk of input) {
      this.done = read ? read() : this.done + chunk.length
      this.draw(false)
      yield chunk
    }
  }

  /** Removes the bar so a message line can be written; the next chunk redraws it. */
  clear(): void {
    if (!this.shown) return
    this.stderr.write('\r\x1b[K')
    this.shown = false
  }

  private draw(force: boolean): void {
    const now = Date.now()
    if (!force && now - this.last < EVERY_MS) return
    this.last = now
    const share = this.total > 0 ? Math.min(1, this.done / this.total) : 1
    const filled = Math.round(share * WIDTH)
    const mb = (n: number) => (n / 1048576).toFixed(1)
    this.stderr.write(`\r\x1b[K${printable(this.name)} [${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${(share * 100).toFixed(0).padStart(3)}% ${mb(this.done)}/${mb(this.total)} MB`)
    this.shown = true
  }
}
