/** `l9kit validate`: Check event documents against the strict or lenient profile. */
import type { Command } from '../command.js'
import { UsageError } from '../command.js'

export const validate: Command = {
  name: 'validate',
  summary: 'Check event documents against the strict or lenient profile',
  help: 'Usage: l9kit validate\n\nNot implemented yet.',
  async run() {
    throw new UsageError('validate: not implemented yet')
  },
}
