/** Option parsing on top of node:util parseArgs, with errors a person can act on. */
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { UsageError } from './command.js'
import { didYouMean } from './suggest.js'

type Options = NonNullable<ParseArgsConfig['options']>

/** The options every command has besides its own (common-options.ts takes them out before this parse). */
const EVERY_COMMAND = ['--help', '--output', '--quiet', '--max-errors']

/** Parses a command's arguments; a mistake is a UsageError naming it (and the closest option for an unknown one). */
export function parse<O extends Options>(command: string, argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true })
  } catch (error) {
    const message = (error as Error).message.replace(/\. To specify a positional argument.*$/s, '')
    const unknown = /^Unknown option '(--?[^'=]+)/.exec(message)?.[1]
    const hint = unknown === undefined ? '' : didYouMean(unknown, [...Object.keys(options).map((name) => `--${name}`), ...EVERY_COMMAND])
    throw new UsageError(`${command}: ${message}${hint} (see 'l9kit ${command} --help')`)
  }
}

/** Checks that an option's value is one of a fixed list. */
export function oneOf<T extends string>(command: string, option: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback
  if ((allowed as readonly string[]).includes(value)) return value as T
  throw new UsageError(`${command}: --${option} must be one of ${allowed.join(', ')} (got '${value}'${didYouMean(value, allowed)})`)
}

/** A positive integer option, with its name in the error. */
export function positiveInt(command: string, option: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback
  const n = Number(value)
  if (!Number.isSafeInteger(n) || n <= 0) throw new UsageError(`${command}: --${option} must be a positive integer (got '${value}')`)
  return n
}

/** Most `--jobs` accepted: each job is a thread with its own V8 heap, and far more than the cores only costs memory. */
export const MAX_JOBS = 64

/** `--jobs N`: a positive integer up to MAX_JOBS. */
export function jobsOption(command: string, value: string | undefined, fallback: number): number {
  const n = positiveInt(command, 'jobs', value, fallback)
  if (n > MAX_JOBS) throw new UsageError(`${command}: --jobs must be at most ${MAX_JOBS} (got '${value}')`)
  return n
}

/** A port option: an integer 0–65535 (0 picks a free one). */
export function portOption(command: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback
  const n = Number(value)
  if (!/^\d+$/.test(value) || n > 65535) throw new UsageError(`${command}: --port must be an integer 0–65535 (got '${value}')`)
  return n
}
