/** `l9kit validate`: checks event documents against the strict or lenient profile. */
import { JsonlWriter } from '../../jsonl/index.js'
import { jobsOption, oneOf, parse, positiveInt } from '../args.js'
import type { Command } from '../command.js'
import { EXIT } from '../command.js'
import { keepingOutput } from '../keep-output.js'
import { openInputs, warnOn } from '../inputs.js'
import { defaultJobs, runJobs } from '../parallel/run.js'
import { ProblemLimit } from '../problem-limit.js'
import { Progress } from '../progress.js'
import type { Counts, ReportCollector } from './validate-report.js'
import { hereState, validateHere } from './validate-here.js'
import { VALIDATED_DOCUMENTS, type ValidateSettings } from './validate-record.js'

const HELP = `Usage: l9kit validate [FILE...] [options]

Checks each event document (or, with --document, each document of another published kind) against a profile: JSON Lines (one document per line), or one JSON
document spread over lines. Each JSON text is one document, as JSON Schema validators judge a
file: an array is not an event document (not_object) unless --array is given.
No FILE, or '-', reads standard input; gzip-compressed input is decompressed.

The report is the command's output: it goes to standard output (or --output FILE), problem
lines and summary alike; usage and I/O errors go to standard error.

Options:
  --profile strict|lenient  strict: the canonical form, every member present with its exact type
                            (default); lenient: what real tools emit (missing members, nulls,
                            numbers as strings, any time offset)
  --document NAME           what each record is: ${VALIDATED_DOCUMENTS.join(', ')}
                            (default event); the profile picks NAME.lenient where one
                            exists (event, aggregation); others have one schema. Warnings
                            (unknown members, unlisted values) are given for events only
  --format FORMAT           text: one line per problem 'file:line: pointer: message', then
                            'N valid, M invalid' (default); json: one object per invalid record
                            {file, line, errors, warnings}, then {"valid":N,"invalid":M};
                            junit: JUnit XML for test reporters (a test suite per input, a
                            failed test case per invalid record); sarif: SARIF 2.1.0 for
                            code scanning (a result per problem, with its file and line)
  --no-warnings             do not report warnings (unknown members, unlisted values)
  --array                   a JSON text that is an array (a whole file such as nuclei's
                            -json-export or 'jq -s' output, or one line) is a list: each element
                            is judged as a document
  --max-line-bytes N        longest accepted line in bytes (default 67108864); longer lines are
                            reported as invalid and skipped
  --jobs N                  worker threads for JSON Lines input (default: one per core, at
                            most 8); 1 reads on the main thread only. Output is the same
  -h, --help                show this help

A progress bar is drawn on standard error when it is a terminal and the input is a file.
Exit status: 0 all valid, 1 some record invalid, 2 usage or I/O error.`

const FORMATS = ['text', 'json', 'junit', 'sarif'] as const

export const validate: Command = {
  name: 'validate',
  summary: 'Check event documents against the strict or lenient profile',
  help: HELP,
  common: ['max-errors'],
  async run(argv, io) {
    const { values, positionals } = parse('validate', argv, {
      profile: { type: 'string' },
      format: { type: 'string' },
      document: { type: 'string' },
      'no-warnings': { type: 'boolean' },
      array: { type: 'boolean' },
      'max-line-bytes': { type: 'string' },
      jobs: { type: 'string' },
    })
    const profile = oneOf('validate', 'profile', values.profile, ['strict', 'lenient'] as const, 'strict')
    const format = oneOf('validate', 'format', values.format, FORMATS, 'text')
    const document = oneOf('validate', 'document', values.document, VALIDATED_DOCUMENTS, 'event')
    const maxLineBytes = positiveInt('validate', 'max-line-bytes', values['max-line-bytes'], 64 * 1024 * 1024)
    // Warnings are informational: --quiet leaves them out of the text and json reports.
    const showWarnings = !values['no-warnings'] && !(io.quiet && (format === 'text' || format === 'json'))
    const jobs = jobsOption('validate', values.jobs, defaultJobs())
    // junit and sarif are built from the json format's records.
    const reportDocument = format === 'junit' || format === 'sarif'
    const settings: ValidateSettings = { profile, format: format === 'text' ? 'text' : 'json', showWarnings, arrays: values.array ?? false, warningRecords: reportDocument, document }
    const inputs = await openInputs(positionals, () => io.stdin, warnOn(io.stderr))
    const progress = new Progress(io)
    const out = new JsonlWriter(progress.stdout)
    // The junit and sarif reports' code is loaded only for them.
    const report = reportDocument ? await import('./validate-report.js') : undefined
    const collector: ReportCollector | undefined = report ? new report.ReportCollector() : undefined
    const problems = new ProblemLimit(collector ?? out, io.maxErrors)
    const perFile = new Map<string, Counts>()
    let valid = 0
    let invalid = 0
    // What this thread's loop keeps between inputs (its judge is loaded when it first judges a record).
    const here = hereState()
    await keepingOutput([out], async () => {
      for (const input of inputs) {
        const counts = perFile.get(input.name) ?? { valid: 0, invalid: 0 }
        perFile.set(input.name, counts)
        const stream = progress.track(input)
        // Large JSON Lines inputs go to worker threads (--jobs); the rest is read here.
        const handled = await runJobs({ ...input, stream }, { job: 'validate', jobs, maxLineBytes, settings }, [problems])
        if ('counts' in handled) {
          counts.valid += handled.counts[0]!
          counts.invalid += handled.counts[1]!
        } else await validateHere({ stream: handled.rest, name: input.name, size: input.size }, settings, maxLineBytes, counts, problems, here)
        progress.done()
        valid += counts.valid
        invalid += counts.invalid
      }
    })
    if (format === 'sarif') await out.write(report!.sarifReport(collector!.records, problems.notShown, io.maxErrors).trimEnd())
    else if (format === 'junit') await out.write(report!.junitReport(collector!.records, perFile, problems.notShown, io.maxErrors).trimEnd())
    else if (format === 'json') {
      if (!io.quiet || problems.notShown > 0) await out.write(JSON.stringify(problems.notShown === 0 ? { valid, invalid } : { valid, invalid, not_shown: problems.notShown }))
    } else {
      const note = problems.note()
      if (note !== undefined) await out.write(note)
      if (!io.quiet) await out.write(`${valid} valid, ${invalid} invalid`)
    }
    await out.flush()
    return invalid > 0 ? EXIT.failed : EXIT.ok
  },
}
