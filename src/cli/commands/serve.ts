/** `l9kit serve`: Run the reference lookup service. */
import type { Command } from '../command.js'
import { UsageError } from '../command.js'

export const serve: Command = {
  name: 'serve',
  summary: 'Run the reference lookup service',
  help: 'Usage: l9kit serve\n\nNot implemented yet.',
  async run() {
    throw new UsageError('serve: not implemented yet')
  },
}
