/** `l9kit schema`: prints one of the generated JSON Schema documents. */
import { DOCUMENT_NAMES, type DocumentName, schemaDocument } from '../../schema/index.js'
import { parse } from '../args.js'
import type { Command } from '../command.js'
import { EXIT, UsageError } from '../command.js'

export const schema: Command = {
  name: 'schema',
  summary: 'Print a generated JSON Schema (draft 2020-12)',
  help: `Usage: l9kit schema [NAME]

Prints a JSON Schema document (draft 2020-12), the same as the file under schema/.
NAME is one of: ${DOCUMENT_NAMES.join(', ')} (default: event).

Options:
  --list      print the names, one per line
  -h, --help  show this help`,
  async run(argv, io) {
    const { values, positionals } = parse('schema', argv, { list: { type: 'boolean' } })
    if (values.list) {
      io.stdout.write(DOCUMENT_NAMES.join('\n') + '\n')
      return EXIT.ok
    }
    if (positionals.length > 1) throw new UsageError('schema: takes at most one NAME')
    const name = (positionals[0] ?? 'event').replace(/\.schema\.json$/, '')
    if (!(DOCUMENT_NAMES as string[]).includes(name)) {
      throw new UsageError(`schema: unknown schema '${name}'; one of ${DOCUMENT_NAMES.join(', ')}`)
    }
    io.stdout.write(JSON.stringify(schemaDocument(name as DocumentName), null, 2) + '\n')
    return EXIT.ok
  },
}
