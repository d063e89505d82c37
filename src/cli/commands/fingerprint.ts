/** `l9kit fingerprint`: prints the event_fingerprint of each document. */
import { eventFingerprint } from '../../fingerprint/index.js'
import { describe } from '../../normalize/context.js'
import { isRecordError, JsonlWriter, readRecords } from '../../jsonl/index.js'
import type { Issue } from '../../validate/issue.js'
import { oneOf, parse, positiveInt } from '../args.js'
import type { Command } from '../command.js'
import { EXIT } from '../command.js'
import { openInputs, problemLine } from '../inputs.js'

const HELP = `Usage: l9kit fingerprint [FILE...] [options]

Computes the event_fingerprint of each event document (JSON Lines, one JSON document, or a
JSON array) from its event_source and summary, and prints it: one line of 64 lower-case hex
characters per input document, in input order. A document whose fingerprint cannot be
computed is reported on standard error and prints no line. No FILE, or '-', reads standard
input.

Options:
  --algo v1|v2          v1: the original library's released algorithm (default); v2: the
                        newer one (skips volatile header lines such as Date, ETag, Via)
  --max-line-bytes N    longest accepted line in bytes (default 67108864)
  -h, --help            show this help

Problems go to standard error as 'file:line: pointer: message'.
Exit status: 0 every document fingerprinted, 1 some document failed, 2 usage or I/O error.`

/** The two inputs of the fingerprint; absent members count as empty, as in a normalised document. */
function inputsOf(value: unknown): { source: string; summary: string } | Issue {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { code: 'not_object', pointer: '', message: 'the document must be a JSON object' }
  }
  const doc = value as Record<string, unknown>
  const source = Object.hasOwn(doc, 'event_source') ? doc.event_source : ''
  const summary = Object.hasOwn(doc, 'summary') ? doc.summary : ''
  for (const [name, v] of [['event_source', source], ['summary', summary]] as const) {
    if (typeof v !== 'string') return { code: 'wrong_type', pointer: `/${name}`, message: `expected string, found ${describe(v)}` }
  }
  return { source: source as string, summary: summary as string }
}

export const fingerprint: Command = {
  name: 'fingerprint',
  summary: 'Print the event_fingerprint of each document',
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parse('fingerprint', argv, {
      algo: { type: 'string' },
      'max-line-bytes': { type: 'string' },
    })
    const version = oneOf('fingerprint', 'algo', values.algo, ['v1', 'v2'] as const, 'v1') === 'v2' ? 2 : 1
    const maxLineBytes = positiveInt('fingerprint', 'max-line-bytes', values['max-line-bytes'], 64 * 1024 * 1024)
    const inputs = await openInputs(positionals, io.stdin)
    const out = new JsonlWriter(io.stdout)
    const err = new JsonlWriter(io.stderr, 16 * 1024)
    let failed = 0
    for (const input of inputs) {
      for await (const record of readRecords(input.stream, { maxLineBytes })) {
        const parts = isRecordError(record) ? record.error : inputsOf(record.value)
        if ('code' in parts) {
          failed++
          await err.write(problemLine(input.name, record.line, parts.pointer, parts.message))
          continue
        }
        await out.write(eventFingerprint(parts.source, parts.summary, version))
      }
    }
    await out.flush()
    await err.flush()
    return failed > 0 ? EXIT.failed : EXIT.ok
  },
}
