/** Every subcommand, in the order `l9kit --help` lists them. */
import type { Command } from '../command.js'
import { conform } from './conform.js'
import { convert } from './convert.js'
import { fingerprint } from './fingerprint.js'
import { normalize } from './normalize.js'
import { schema } from './schema.js'
import { serve } from './serve.js'
import { validate } from './validate.js'

export const commands: Command[] = [validate, normalize, fingerprint, convert, schema, serve, conform]
