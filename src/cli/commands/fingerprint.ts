/** `l9kit fingerprint`: prints the event_fingerprint of each document. */
import { JsonlWriter, readRecords } from '../../jsonl/index.js'
import { jobsOption, oneOf, parse, positiveInt } from '../args.js'
import type { Command } from '../command.js'
import { EXIT } from '../command.js'
import { keepingOutput } from '../keep-output.js'
import { issueLine, openInputs, warnOn } from '../inputs.js'
import { defaultJobs, runJobs } from '../parallel/run.js'
import { ProblemLimit } from '../problem-limit.js'
import { Progress } from '../progress.js'
import { fingerprintRecord } from './fingerprint-record.js'

const HELP = `Usage: l9kit fingerprint [FILE...] [options]

Computes the event_fingerprint of each event document (JSON Lines, one JSON document, or a
JSON array) from its event_source and summary, and prints it: one line of 64 lower-case hex
characters per input document, in input order. A document whose fingerprint cannot be
computed is reported on standard error and prints no line. No FILE, or '-', reads standard
input; gzip-compressed input is decompressed.

Options:
  --algo v1|v2          v1: the original library's released algorithm (default); v2: the
                        newer one (skips volatile header lines such as Date, ETag, Via)
  --max-line-bytes N    longest accepted line in bytes (default 67108864)
  --jobs N              worker threads for JSON Lines input (default: one per core, at most
                        8); 1 reads on the main thread only. Output is the same
  -h, --help            show this help

Problems go to standard error as 'file:line: pointer: message'. A progress bar is drawn on
standard error when it is a terminal and the input is a file.
Exit status: 0 every document fingerprinted, 1 some document failed, 2 usage or I/O error.`

export const fingerprint: Command = {
  name: 'fingerprint',
  summary: 'Print the event_fingerprint of each document',
  help: HELP,
  common: ['max-errors'],
  async run(argv, io) {
    const { values, positionals } = parse('fingerprint', argv, {
      algo: { type: 'string' },
      'max-line-bytes': { type: 'string' },
      jobs: { type: 'string' },
    })
    const version = oneOf('fingerprint', 'algo', values.algo, ['v1', 'v2'] as const, 'v1') === 'v2' ? 2 : 1
    const maxLineBytes = positiveInt('fingerprint', 'max-line-bytes', values['max-line-bytes'], 64 * 1024 * 1024)
    const jobs = jobsOption('fingerprint', values.jobs, defaultJobs())
    const inputs = await openInputs(positionals, () => io.stdin, warnOn(io.stderr))
    const progress = new Progress(io)
    const out = new JsonlWriter(progress.stdout)
    const err = new JsonlWriter(progress.stderr, 16 * 1024)
    const problems = new ProblemLimit(err, io.maxErrors)
    let failed = 0
    await keepingOutput([out, err], async () => {
      for (const input of inputs) {
        // Large JSON Lines inputs go to worker threads (--jobs); the rest is read here.
        const stream = progress.track(input)
        const handled = await runJobs({ ...input, stream }, { job: 'fingerprint', jobs, maxLineBytes, settings: version }, [out, problems])
        if ('counts' in handled) {
          failed += handled.counts[0]!
          progress.done()
          continue
        }
        for await (const record of readRecords(handled.rest, { maxLineBytes })) {
          const result = fingerprintRecord(record, version)
          if (typeof result !== 'string') {
            failed++
            await problems.write(issueLine(input.name, record.line, result))
            continue
          }
          await out.write(result)
        }
        progress.done()
      }
    })
    await out.flush()
    const note = problems.note()
    if (note !== undefined) await err.write(note)
    await err.flush()
    return failed > 0 ? EXIT.failed : EXIT.ok
  },
}
