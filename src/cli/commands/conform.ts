/** `l9kit conform`: Check a lookup API server against the specification. */
import type { Command } from '../command.js'
import { UsageError } from '../command.js'

export const conform: Command = {
  name: 'conform',
  summary: 'Check a lookup API server against the specification',
  help: 'Usage: l9kit conform\n\nNot implemented yet.',
  async run() {
    throw new UsageError('conform: not implemented yet')
  },
}
