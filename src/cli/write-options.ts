/**
 * `--header-order` and `--escape`: how every command that writes event documents writes
 * them (normalize, convert --to l9). One definition, so they read and behave the same.
 */
import type { WriteOptions } from '../normalize/index.js'
import { oneOf } from './args.js'
import { optionLines } from './help.js'

/** The parseArgs entries of the two options. */
export const WRITE_OPTIONS = {
  'header-order': { type: 'string' },
  escape: { type: 'string' },
} as const

const HELP: [string, string][] = [
  ['--header-order sorted|input', 'sorted: header names in byte order of their UTF-8 bytes, as the original Go tools write them (default); input: in the order the input gives them'],
  ['--escape plain|go', 'plain: UTF-8 text with only the escapes JSON needs (default); go: also the escapes Go writes (\\u003c \\u003e \\u0026 \\u2028 \\u2029 \\u0008 \\u000c): byte for byte what the original tools write'],
]

/** Their lines in a command's --help, descriptions starting at `column` and wrapped at 90. */
export const writeOptionsHelp = (column: number): string => optionLines(HELP, column)

/** The write options a command's parsed values ask for. */
export function writeOptions(command: string, values: { 'header-order'?: string | boolean; escape?: string | boolean }): Required<WriteOptions> {
  return {
    headerOrder: oneOf(command, 'header-order', values['header-order'] as string | undefined, ['sorted', 'input'] as const, 'sorted'),
    escape: oneOf(command, 'escape', values.escape as string | undefined, ['plain', 'go'] as const, 'plain'),
  }
}

/** True when either option was given (for commands where they apply to some outputs only). */
export const writeOptionsGiven = (values: { 'header-order'?: unknown; escape?: unknown }) => values['header-order'] !== undefined || values.escape !== undefined
