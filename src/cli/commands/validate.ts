/** `l9kit validate`: checks event documents against the strict or lenient profile. */
import { JsonlWriter, readRecords } from '../../jsonl/index.js'
import { jobsOption, oneOf, parse, positiveInt } from '../args.js'
import type { Command } from '../command.js'
import { EXIT } from '../command.js'
import { keepingOutput } from '../keep-output.js'
import { openInputs } from '../inputs.js'
import { defaultJobs, runJobs } from '../parallel/run.js'
import { documentsOf, VALIDATED_DOCUMENTS, type ValidateSettings, validateRecord } from './validate-record.js'

const HELP = `Usage: l9kit validate [FILE...] [options]

Checks each event document (or, with --document, each document of another published kind) against a profile: JSON Lines (one document per line), or one JSON
document spread over lines. Each JSON text is one document, as JSON Schema validators judge a
file: an array is not an event document (not_object) unless --array is given.
No FILE, or '-', reads standard input; gzip-compressed input is decompressed.

Options:
  --profile strict|lenient  strict: the canonical form, every member present with its exact type
                            (default); lenient: what real tools emit (missing members, nulls,
                            numbers as strings, any time offset)
  --document NAME           what each record is: ${VALIDATED_DOCUMENTS.join(', ')}
                            (default event); the profile picks NAME.lenient where one
                            exists (event, aggregation); others have one schema. Warnings
                            (unknown members, unlisted values) are given for events only
  --format text|json        text: one line per problem 'file:line: pointer: message', then
                            'N valid, M invalid' (default); json: one object per invalid record
                            {file, line, errors, warnings}, then {"valid":N,"invalid":M}
  --no-warnings             do not report warnings (unknown members, unlisted values)
  --array                   a JSON text that is an array (a whole file such as nuclei's
                            -json-export or 'jq -s' output, or one line) is a list: each element
                            is judged as a document
  --max-line-bytes N        longest accepted line in bytes (default 67108864); longer lines are
                            reported as invalid and skipped
  --jobs N                  worker threads for JSON Lines input (default: one per core, at
                            most 8); 1 reads on the main thread only. Output is the same
  -h, --help                show this help

Exit status: 0 all valid, 1 some record invalid, 2 usage or I/O error.`

export const validate: Command = {
  name: 'validate',
  summary: 'Check event documents against the strict or lenient profile',
  help: HELP,
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
    const format = oneOf('validate', 'format', values.format, ['text', 'json'] as const, 'text')
    const document = oneOf('validate', 'document', values.document, VALIDATED_DOCUMENTS, 'event')
    const maxLineBytes = positiveInt('validate', 'max-line-bytes', values['max-line-bytes'], 64 * 1024 * 1024)
    const showWarnings = !values['no-warnings']
    const jobs = jobsOption('validate', values.jobs, defaultJobs())
    const settings: ValidateSettings = { profile, format, showWarnings, arrays: values.array ?? false, document }
    const inputs = await openInputs(positionals, io.stdin)
    const out = new JsonlWriter(io.stdout)
    let valid = 0
    let invalid = 0
    await keepingOutput([out], async () => {
      for (const input of inputs) {
        // Large JSON Lines inputs go to worker threads (--jobs); the rest is read here.
        const handled = await runJobs(input, { job: 'validate', jobs, maxLineBytes, settings }, [out])
        if ('counts' in handled) {
          valid += handled.counts[0]!
          invalid += handled.counts[1]!
          continue
        }
        for await (const record of readRecords(handled.rest, { maxLineBytes, arrayElements: settings.arrays })) {
          for (const document of documentsOf(record, settings)) {
            const { ok, lines } = validateRecord(document, input.name, settings)
            if (ok) valid++
            else invalid++
            for (const line of lines) await out.write(line)
          }
        }
      }
    })
    await out.write(format === 'json' ? JSON.stringify({ valid, invalid }) : `${valid} valid, ${invalid} invalid`)
    await out.flush()
    return invalid > 0 ? EXIT.failed : EXIT.ok
  },
}
