/** `l9kit convert`: Convert other tools' output to event documents and back. */
import type { Command } from '../command.js'
import { UsageError } from '../command.js'

export const convert: Command = {
  name: 'convert',
  summary: "Convert other tools' output to event documents and back",
  help: 'Usage: l9kit convert\n\nNot implemented yet.',
  async run() {
    throw new UsageError('convert: not implemented yet')
  },
}
