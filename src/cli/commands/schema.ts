/** `l9kit schema`: Print a generated JSON Schema. */
import type { Command } from '../command.js'
import { UsageError } from '../command.js'

export const schema: Command = {
  name: 'schema',
  summary: 'Print a generated JSON Schema',
  help: 'Usage: l9kit schema\n\nNot implemented yet.',
  async run() {
    throw new UsageError('schema: not implemented yet')
  },
}
