/** `l9kit fingerprint`: Print the event_fingerprint of each document. */
import type { Command } from '../command.js'
import { UsageError } from '../command.js'

export const fingerprint: Command = {
  name: 'fingerprint',
  summary: 'Print the event_fingerprint of each document',
  help: 'Usage: l9kit fingerprint\n\nNot implemented yet.',
  async run() {
    throw new UsageError('fingerprint: not implemented yet')
  },
}
