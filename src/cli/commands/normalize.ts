/** `l9kit normalize`: Rewrite event documents in canonical form. */
import type { Command } from '../command.js'
import { UsageError } from '../command.js'

export const normalize: Command = {
  name: 'normalize',
  summary: 'Rewrite event documents in canonical form',
  help: 'Usage: l9kit normalize\n\nNot implemented yet.',
  async run() {
    throw new UsageError('normalize: not implemented yet')
  },
}
