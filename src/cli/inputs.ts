/** Turning FILE arguments into opened inputs, shared by the commands that read documents. */
import type { Readable } from 'node:stream'
import { inputName, openSized, type Warn } from '../jsonl/index.js'
import type { Issue } from '../validate/issue.js'
import { printable } from '../validate/printable.js'

export interface NamedInput {
  /** Name used in messages: the path, or `<stdin>`. */
  name: string
  stream: AsyncIterable<Uint8Array>
  /** Bytes, for files (progress bars); undefined for standard input. */
  size?: number
  /** For a gzip file: its compressed bytes read so far (progress is measured against `size` in those). */
  read?: () => number
}

/**
 * Opens every FILE now (none given, or `-`, is standard input; `stdin` may be a function
 * giving it, called only then), so a missing file is a
 * usage error before any output is written. gzip-compressed inputs are decompressed; `warn`
 * hears what is read with a warning (a gzip trailer cut short: every byte read, CRC unchecked).
 */
export async function openInputs(paths: string[], stdin: Readable | (() => Readable), warn?: Warn): Promise<NamedInput[]> {
  const list = paths.length === 0 ? ['-'] : paths
  const opened: NamedInput[] = []
  for (const path of list) opened.push({ name: inputName(path), ...(await openSized(path, stdin, warn)) })
  return opened
}

/** A warning line on standard error (terminal-safe: it may name a file). */
export const warnOn = (stderr: { write(text: string): unknown }): Warn => (message) => void stderr.write(`${printable(message)}\n`)

/**
 * `file:line: pointer: message`, the one format every command reports problems in; a name or
 * value from the input in it is made terminal-safe (printable()).
 */
export function problemLine(file: string, line: number, pointer: string, message: string): string {
  return printable(`${file}:${line}: ${pointer === '' ? '(document)' : pointer}: ${message}`)
}

/** problemLine for an issue; an internal error also carries its stack trace on the lines after. */
export function issueLine(file: string, line: number, issue: Issue, prefix = ''): string {
  const text = problemLine(file, line, issue.pointer, `${prefix}${issue.message}`)
  return issue.stack ? `${text}\n${issue.stack}` : text
}
