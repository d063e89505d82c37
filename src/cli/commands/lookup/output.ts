/**
 * Writing what the client commands receive. Events go through `convert`'s output formats
 * (src/convert/output: `--to l9`, the default, is JSON Lines; `human`, `csv --fields`,
 * `hostport`, `url`, …), so a lookup's events print as a conversion's would; an event a format
 * cannot express (no port for hostport) is reported on standard error and counted, never
 * dropped silently. Other answers (subdomains, plugins, a count, aggregations) are JSON Lines,
 * or the few readable forms each command offers.
 */
import { createOutput, FIELD_OUTPUTS, isSkip, OUTPUT_DESCRIPTIONS, OUTPUT_NAMES, type Output, type OutputName, UnknownFieldError } from '../../../convert/output/index.js'
import { JsonlWriter } from '../../../jsonl/index.js'
import type { Event } from '../../../schema/index.js'
import { printable } from '../../../validate/printable.js'
import { oneOf } from '../../args.js'
import { type Io, UsageError } from '../../command.js'
import { optionLines } from '../../help.js'
import type { StatusLine } from './shared.js'

/** The output options of the commands that print events (parseArgs form). */
export const OUTPUT_OPTIONS = {
  to: { type: 'string' },
  fields: { type: 'string' },
  'csv-raw': { type: 'boolean' },
} as const

/** The help lines of OUTPUT_OPTIONS. */
export const outputHelp = (column: number): string =>
  optionLines(
    [
      ['--to FORMAT', `how events are written (default l9: JSON Lines, as the server sent them): ${OUTPUT_NAMES.map((n) => `${n} (${OUTPUT_DESCRIPTIONS[n]})`).join('; ')}`],
      ['--fields LIST', 'csv and human: comma-separated member paths, as for convert (ip,port,http.status,ssl.certificate.cn,…)'],
      ['--csv-raw', 'csv: cells as they are (by default control characters are escaped and a formula-like cell gets a leading \')'],
    ],
    column,
  )

interface OutputValues {
  to?: string
  fields?: string
  'csv-raw'?: boolean
}

/** The events' output format the options name (convert's checks: --fields for csv and human, --csv-raw for csv). */
export function eventOutput(command: string, values: OutputValues): Output {
  const to = oneOf(command, 'to', values.to, OUTPUT_NAMES, 'l9') as OutputName
  if (values.fields !== undefined && !FIELD_OUTPUTS.includes(to)) throw new UsageError(`${command}: --fields applies to --to ${FIELD_OUTPUTS.join(' and ')} only`)
  if (values['csv-raw'] === true && to !== 'csv') throw new UsageError(`${command}: --csv-raw applies to --to csv only`)
  const fields = (values.fields ?? '').split(',').map((f) => f.trim()).filter((f) => f !== '')
  try {
    return createOutput(to, { fields, csvRaw: values['csv-raw'] === true })
  } catch (error) {
    if (error instanceof UnknownFieldError) throw new UsageError(`${command}: --fields: ${error.message}`)
    throw error
  }
}

/**
 * Writes events in an output format to standard output (batched, waiting when it is full),
 * counting them; `flush()` after each page or so, so that lines appear as they come.
 */
export class EventSink {
  /** Events received (written or skipped). */
  events = 0
  skipped = 0
  private readonly out: JsonlWriter
  private headed = false

  constructor(
    private readonly command: string,
    private readonly io: Io,
    private readonly output: Output,
    private readonly status: StatusLine,
  ) {
    this.out = new JsonlWriter(io.stdout, 64 * 1024)
  }

  async write(event: Event): Promise<void> {
    if (!this.headed && this.output.header) {
      this.headed = true
      await this.line(this.output.header())
    }
    this.events++
    const text = this.output.format(event)
    if (isSkip(text)) {
      this.skipped++
      this.status.clear()
      const where = event.ip || event.host
      this.io.stderr.write(`l9kit ${this.command}: event ${this.events}${where === '' ? '' : ` (${printable(where)})`}: ${printable(text.skip)}\n`)
      return
    }
    await this.line(text)
  }

  private async line(text: string): Promise<void> {
    // JsonlWriter ends every line in `\n`; CSV rows end in `\r\n`.
    const pending = this.out.write(this.output.eol === '\r\n' ? `${text}\r` : text)
    if (pending) await pending
  }

  async flush(): Promise<void> {
    this.status.clear()
    await this.out.flush()
  }
}

/** Writes JSON values as JSON Lines (subdomains, plugins, aggregations, a count). */
export class JsonSink {
  lines = 0
  private readonly out: JsonlWriter
  constructor(io: Io) {
    this.out = new JsonlWriter(io.stdout, 64 * 1024)
  }
  async write(value: unknown): Promise<void> {
    this.lines++
    const pending = this.out.write(JSON.stringify(value))
    if (pending) await pending
  }
  /** A line of text as it is (a readable form). */
  async text(line: string): Promise<void> {
    this.lines++
    const pending = this.out.write(line)
    if (pending) await pending
  }
  flush(): Promise<void> {
    return this.out.flush()
  }
}

/** Columns of text, each padded to its widest cell (the last left as it is), values terminal-safe. */
export function columns(rows: readonly (readonly string[])[]): string[] {
  const safe = rows.map((r) => r.map((c) => printable(c)))
  const widths = safe[0]?.map((_, i) => Math.max(...safe.map((r) => r[i]?.length ?? 0))) ?? []
  return safe.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd())
}
