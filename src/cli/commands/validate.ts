/** `l9kit validate`: checks event documents against the strict or lenient profile. */
import { isRecordError, JsonlWriter, readRecords } from '../../jsonl/index.js'
import { validate as validateDoc } from '../../validate/index.js'
import { oneOf, parse, positiveInt } from '../args.js'
import type { Command } from '../command.js'
import { EXIT } from '../command.js'
import { openInputs, problemLine } from '../inputs.js'

const HELP = `Usage: l9kit validate [FILE...] [options]

Checks each event document (JSON Lines, one JSON document, or a JSON array) against a profile.
No FILE, or '-', reads standard input.

Options:
  --profile strict|lenient  strict: the canonical form, every member present with its exact type
                            (default); lenient: what real tools emit (missing members, nulls,
                            numbers as strings, any time offset)
  --format text|json        text: one line per problem 'file:line: pointer: message', then
                            'N valid, M invalid' (default); json: one object per invalid record
                            {file, line, errors, warnings}, then {"valid":N,"invalid":M}
  --no-warnings             do not report warnings (unknown members, unlisted values)
  --max-line-bytes N        longest accepted line in bytes (default 67108864); longer lines are
                            reported as invalid and skipped
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
      'no-warnings': { type: 'boolean' },
      'max-line-bytes': { type: 'string' },
    })
    const profile = oneOf('validate', 'profile', values.profile, ['strict', 'lenient'] as const, 'strict')
    const format = oneOf('validate', 'format', values.format, ['text', 'json'] as const, 'text')
    const maxLineBytes = positiveInt('validate', 'max-line-bytes', values['max-line-bytes'], 64 * 1024 * 1024)
    const showWarnings = !values['no-warnings']
    const inputs = await openInputs(positionals, io.stdin)
    const out = new JsonlWriter(io.stdout)
    let valid = 0
    let invalid = 0
    for (const input of inputs) {
      for await (const record of readRecords(input.stream, { maxLineBytes })) {
        const report = isRecordError(record)
          ? { ok: false, errors: [record.error], warnings: [] }
          : validateDoc(record.value, { profile })
        if (report.ok) valid++
        else invalid++
        const warnings = showWarnings ? report.warnings : []
        if (report.ok && warnings.length === 0) continue
        if (format === 'json') {
          if (!report.ok) await out.write(JSON.stringify({ file: input.name, line: record.line, errors: report.errors, warnings }))
          continue
        }
        for (const issue of report.errors) await out.write(problemLine(input.name, record.line, issue.pointer, issue.message))
        for (const issue of warnings) await out.write(problemLine(input.name, record.line, issue.pointer, `warning: ${issue.message}`))
      }
    }
    await out.write(format === 'json' ? JSON.stringify({ valid, invalid }) : `${valid} valid, ${invalid} invalid`)
    await out.flush()
    return invalid > 0 ? EXIT.failed : EXIT.ok
  },
}
