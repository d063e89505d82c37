/** `l9kit convert`: other tools' output to event documents, and event documents to simple formats. */
import { once } from 'node:events'
import type { Readable } from 'node:stream'
import {
  autoConverterFor,
  CONVERTERS,
  type Converter,
  converterNamed,
  converterNames,
  createOutput,
  detectInput,
  guessedConverter,
  type Guess,
  isProblem,
  type Misfits,
  misfitsFrom,
  misfitSummary,
  OUTPUT_DESCRIPTIONS,
  OUTPUT_NAMES,
  type Output,
  perRecord,
  FIELD_OUTPUTS,
  LEAF_PATHS,
  PROTOCOL_PATHS,
  UnknownFieldError,
  undetectedMessage,
} from '../../convert/index.js'
import type { ConvertContext } from '../../convert/types.js'
import { JsonlWriter } from '../../jsonl/index.js'
import type { WriteOptions } from '../../normalize/index.js'
import { canonicalTime, formatTime } from '../../time/index.js'
import { jobsOption, oneOf, parse, positiveInt } from '../args.js'
import type { Command } from '../command.js'
import { EXIT, UsageError } from '../command.js'
import { openInputs, warnOn } from '../inputs.js'
import type { ConvertJobSettings } from '../parallel/jobs/convert.js'
import { defaultJobs, runJobs } from '../parallel/run.js'
import { WRITE_OPTIONS, writeOptions, writeOptionsGiven, writeOptionsHelp } from '../write-options.js'
import { printable } from '../../validate/printable.js'
import { ProblemLimit } from '../problem-limit.js'
import { didYouMean } from '../suggest.js'
import { convertItem } from './convert-item.js'
import { ProgressBar } from '../progress-bar.js'

/** JSON converters that `--jobs` runs on worker threads (the others read on one thread); `auto`: each JSON record by its own format. */
const PARALLEL = new Set(['httpx', 'naabu', 'zgrab2', 'dnsx', 'nuclei', 'l9', 'masscan-ndjson', 'subfinder', 'tlsx', 'katana', 'shodan', 'censys', 'auto'])
/** The marker the convert job writes for an event number (see parallel/jobs/convert.ts). */
const EVENT_MARK = /\u0000(\d+)\u0000/g

const pad = (names: readonly string[]) => Math.max(...names.map((n) => n.length))

function help(): string {
  const fw = pad(converterNames())
  const ow = pad(OUTPUT_NAMES)
  return `Usage: l9kit convert --from FORMAT|auto [--to FORMAT] [--fields LIST] [options] [FILE...]

Converts the output of recon tools into event documents (--to l9, the default), and event
documents (--from l9) or any tool's output into simple formats. Streams: memory stays flat
on inputs of any size. No FILE, or '-', reads standard input; gzip-compressed input (such
as a 'shodan download' file) is decompressed.

Options:
  --from FORMAT|auto     the input format (required); auto converts each record of a JSON
                         input with the format whose members it has (two tools' output
                         concatenated converts as each tool's), reporting a record no format
                         recognises; other inputs are recognised from their first record, and
                         later records that do not fit are reported ('taken as zmap from line
                         1; use --from sx to force another'); it fails, naming the formats,
                         when none fits the first record. A named JSON format reports a record
                         that is another format's
  --to FORMAT            the output format (default l9)
  --fields LIST          csv and human: comma-separated member paths such as
                         ip,port,http.status,ssl.certificate.cn,http.header.server
                         (csv default time,event_type,event_source,ip,host,port,
                         transport,protocol,http.status,http.title,leak.severity,
                         leak.type); --columns is the older name, for csv
  --csv-raw              csv: write cells as they are; by default control characters
                         are escaped and a cell starting with = + - @ (a formula to a
                         spreadsheet) gets a leading '
${writeOptionsHelp(25)}
                         (both for --to l9 only)
  --fingerprint v1|v2    event_fingerprint version computed for converted events
                         (default v1)
  --run-start TIME       RFC 3339 time given to records that carry none (default: now)
  --max-line-bytes N     longest accepted line in bytes (default 67108864)
  --jobs N               worker threads for large JSON Lines input (httpx, naabu, zgrab2,
                         dnsx, nuclei, l9, masscan-ndjson, subfinder, tlsx, katana, shodan,
                         censys; default: one per core, at most 8); 1 converts on the main
                         thread only. Output is the same
  -h, --help             show this help

Input formats (--from):
${CONVERTERS.map((c) => `  ${c.name.padEnd(fw)}  ${c.description}`).join('\n')}

Output formats (--to):
${OUTPUT_NAMES.map((n) => `  ${n.padEnd(ow)}  ${OUTPUT_DESCRIPTIONS[n]}`).join('\n')}

Every converted event is normalised and valid in the strict profile: event_source is the
tool, event_pipeline [tool, l9kit], time the tool's own timestamp in canonical UTC.
Records that cannot be converted (and events the output format cannot express, such as an
event without a port for hostport) are reported on standard error as 'file:line: reason'
and counted; the last line on standard error is 'N converted, M skipped'. A progress bar is
drawn on standard error when it is a terminal and the input is a file.

Exit status: 0 everything converted, 1 some record skipped, 2 usage or I/O error.`
}

interface Counts {
  converted: number
  skipped: number
}

/** The `convert` subcommand. */
export const convert: Command = {
  name: 'convert',
  summary: "Convert other tools' output to event documents and back",
  help: help(),
  common: ['max-errors'],
  async run(argv, io) {
    const { values, positionals } = parse('convert', argv, {
      from: { type: 'string' },
      to: { type: 'string' },
      columns: { type: 'string' },
      fields: { type: 'string' },
      'csv-raw': { type: 'boolean' },
      fingerprint: { type: 'string' },
      'run-start': { type: 'string' },
      'max-line-bytes': { type: 'string' },
      jobs: { type: 'string' },
      ...WRITE_OPTIONS,
    })
    if (values.from === undefined) throw new UsageError(`convert: --from is required: auto or one of ${converterNames().join(', ')}`)
    const from = values.from === 'auto' ? 'auto' : converterNamed(values.from)
    if (!from) throw new UsageError(`convert: --from must be auto or one of ${converterNames().join(', ')} (got '${values.from}')`)
    const to = oneOf('convert', 'to', values.to, OUTPUT_NAMES, 'l9')
    if (values.columns !== undefined && to !== 'csv') throw new UsageError('convert: --columns applies to --to csv only')
    if (values.fields !== undefined && !FIELD_OUTPUTS.includes(to)) throw new UsageError(`convert: --fields applies to --to ${FIELD_OUTPUTS.join(' and ')} only`)
    if (values.fields !== undefined && values.columns !== undefined) throw new UsageError('convert: give --fields or --columns, not both')
    const fieldsOption = values.fields === undefined ? '--columns' : '--fields'
    const fields = splitList(values.fields ?? values.columns)
    if (writeOptionsGiven(values) && to !== 'l9') throw new UsageError('convert: --header-order and --escape apply to --to l9 only')
    const csvRaw = values['csv-raw'] === true
    if (csvRaw && to !== 'csv') throw new UsageError('convert: --csv-raw applies to --to csv only')
    const write = writeOptions('convert', values)
    const output = makeOutput(to, fields, fieldsOption, write, csvRaw)
    const fingerprint = oneOf('convert', 'fingerprint', values.fingerprint, ['v1', 'v2'] as const, 'v1')
    const ctx: ConvertContext = {
      runStart: runStart(values['run-start']),
      fingerprint: fingerprint === 'v2' ? 2 : 1,
      maxLineBytes: positiveInt('convert', 'max-line-bytes', values['max-line-bytes'], 64 * 1024 * 1024),
    }
    const jobs = jobsOption('convert', values.jobs, defaultJobs())
    const inputs = await openInputs(positionals, () => io.stdin, warnOn(io.stderr))
    const out = new JsonlWriter(io.stdout)
    const counts: Counts = { converted: 0, skipped: 0 }
    // Ctrl-C: stop reading, keep what was converted, still print the summary.
    const stop = () => {
      for (const input of inputs) (input.stream as Partial<Readable>).destroy?.()
    }
    io.stopSignal?.addEventListener('abort', stop, { once: true })
    // Problem lines (records skipped) erase the bar first; --max-errors holds back those past N.
    let bar: ProgressBar | undefined
    const toStderr = (data: string | Uint8Array) => {
      bar?.clear()
      return io.stderr.write(data) ? undefined : once(io.stderr, 'drain').then(() => undefined)
    }
    const problems = new ProblemLimit({ write: (text: string) => toStderr(`${text}\n`), writeBytes: toStderr }, io.maxErrors)
    try {
      if (output.header) await out.write(line(output, output.header()))
      for (const input of inputs) {
        if (io.stopSignal?.aborted) break
        bar = io.stderrIsTTY && !io.quiet && input.size !== undefined ? new ProgressBar(io.stderr, input.name, input.size) : undefined
        let stream = bar ? bar.track(input.stream, input.read) : input.stream
        let converter: Converter
        let guess: Guess | undefined
        let byRecord = false
        // With auto, records that do not fit the guess are reported with it (convert/guess.ts).
        const misfits: Misfits = { count: 0, formats: new Map() }
        if (from === 'auto') {
          // The head, and for a JSON input the records past it as far as needed (convert/detect-input.ts).
          const peeked = await detectInput(stream, ctx.maxLineBytes)
          stream = peeked.stream
          guess = peeked.guess
          if (!guess) {
            if (peeked.head.trim() === '') continue // an empty input: nothing to convert
            await out.flush() // what earlier files gave is kept
            throw new UsageError(undetectedMessage(`convert: ${input.name}`, peeked.head))
          }
          // A JSON input: each record by the format that claims it; else the guess, whose
          // misfits are reported with it.
          byRecord = perRecord(guess, peeked.head)
          converter = byRecord ? autoConverterFor(guess.converter.name) : guessedConverter(guess, misfits)
        } else converter = from
        if (jobs > 1 && PARALLEL.has(converter.name)) {
          // Large JSON Lines inputs go to worker threads (--jobs); the rest is read here.
          const settings: ConvertJobSettings = { from: byRecord ? 'auto' : converter.name, guessFrom: guess?.converter.name, to, fields, csvRaw, write, ctx, guessLine: byRecord ? undefined : guess?.line }
          // Event numbers in messages: a block's own, plus the events of the blocks before it.
          const fixText = (i: number, text: string, before: readonly number[]) => (i === 1 ? text.replace(EVENT_MARK, (_, n: string) => String(before[2]! + Number(n))) : text)
          const handled = await runJobs({ name: input.name, stream, size: input.size }, { job: 'convert', jobs, maxLineBytes: ctx.maxLineBytes, settings, fixText }, [out, problems])
          if ('counts' in handled) {
            counts.converted += handled.counts[0]!
            counts.skipped += handled.counts[1]!
            bar?.clear()
            const summary = guess && !byRecord && !io.quiet && misfitSummary(input.name, guess, misfitsFrom(handled.counts.slice(3)))
            if (summary) io.stderr.write(`${printable(summary)}\n`)
            continue
          }
          stream = handled.rest
        }
        await convertOne(converter, stream, ctx, output, input.name, out, problems, counts)
        bar?.clear()
        const summary = guess && !byRecord && !io.quiet && misfitSummary(input.name, guess, misfits)
        if (summary) io.stderr.write(`${printable(summary)}\n`)
      }
    } catch (error) {
      if (!io.stopSignal?.aborted) {
        await out.flush().catch(() => undefined) // what was converted before the error is kept
        throw error
      }
    } finally {
      io.stopSignal?.removeEventListener('abort', stop)
    }
    await out.flush()
    const note = problems.note()
    if (note !== undefined) io.stderr.write(`${note}\n`)
    const interrupted = io.stopSignal?.aborted ? ' (interrupted)' : ''
    if (!io.quiet || interrupted) io.stderr.write(`${counts.converted} converted, ${counts.skipped} skipped${interrupted}\n`)
    if (interrupted) return EXIT.failed
    return counts.skipped > 0 ? EXIT.failed : EXIT.ok
  },
}

async function convertOne(
  converter: Converter,
  stream: AsyncIterable<Uint8Array>,
  ctx: ConvertContext,
  output: Output,
  name: string,
  out: JsonlWriter,
  problems: ProblemLimit,
  counts: Counts,
): Promise<void> {
  // Waits when stderr is full, so a flood of problems cannot pile up in memory.
  const report = async (text: string) => {
    await problems.write(text)
  }
  let events = 0
  for await (const item of converter.convert(stream, ctx)) {
    if (!isProblem(item)) events++
    const result = convertItem(item, name, output, events)
    if ('err' in result) {
      counts.skipped++
      await report(result.err)
      continue
    }
    counts.converted++
    const pending = out.write(result.out)
    if (pending) await pending
  }
}

/** JsonlWriter ends every line in `\n`; CSV rows end in `\r\n`. */
const line = (output: Output, text: string) => (output.eol === '\r\n' ? `${text}\r` : text)

/** `a, b,,c` → [a, b, c]; none → []. */
const splitList = (text: string | undefined) => (text === undefined ? [] : text.split(',').map((c) => c.trim()).filter((c) => c !== ''))

function makeOutput(to: (typeof OUTPUT_NAMES)[number], fields: readonly string[], option: string, write: WriteOptions, csvRaw: boolean): Output {
  try {
    return createOutput(to, { fields, write, csvRaw })
  } catch (error) {
    if (error instanceof UnknownFieldError) throw new UsageError(`convert: ${option}: ${withSuggestion(error.message)}`)
    throw error
  }
}

function runStart(text: string | undefined): string {
  if (text === undefined) return formatTime(BigInt(Date.now()) * 1_000_000n)
  const t = canonicalTime(text, { lenient: true })
  if (!t.ok) throw new UsageError(`convert: --run-start: ${t.reason}`)
  return t.value
}

/** Every path `--fields` takes: the leaves and the objects above them. */
const fieldPaths = () => [...new Set([...LEAF_PATHS.flatMap((path) => path.split('.').map((_, i, parts) => parts.slice(0, i + 1).join('.'))), ...PROTOCOL_PATHS])]

/** An unknown field's message with the closest path named first (`unknown field 'http.stauts'; did you mean 'http.status'? (fields: …)`). */
function withSuggestion(message: string): string {
  return message.replace(/^(unknown field '([^']*)')/, (whole, _: string, typed: string) => `${whole}${didYouMean(typed, fieldPaths())}`)
}
