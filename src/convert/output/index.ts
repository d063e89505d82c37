/** The output formats of `l9kit convert --to`. */
import { csvOutput } from './csv.js'
import { hostportOutput } from './hostport.js'
import { humanFieldsOutput, humanOutput } from './human.js'
import { l9Output, l9OutputWith } from './l9.js'
import type { WriteOptions } from '../../normalize/index.js'
import { dnsxOutput, masscanConsoleOutput, nmapGrepOutput, sxOutput } from './tools.js'
import type { Output } from './types.js'
import { urlOutput } from './url.js'

export { CSV_COLUMNS, csvField, csvOutput, DEFAULT_COLUMNS, safeCell, UnknownColumnError } from './csv.js'
export { type Field, fieldText, fieldValue, LEAF_PATHS, PROTOCOL_PATHS, parseFields, UnknownFieldError } from './fields.js'
export { hostportOutput } from './hostport.js'
export { humanFieldsOutput, humanOutput, humanText } from './human.js'
export { l9Output, l9OutputWith } from './l9.js'
export { dnsxOutput, masscanConsoleOutput, nmapGrepOutput, sxOutput } from './tools.js'
export { isSkip, type Output, type Skip } from './types.js'
export { urlOutput } from './url.js'

/** The names `--to` accepts. */
export const OUTPUT_NAMES = ['l9', 'hostport', 'url', 'human', 'csv', 'dnsx', 'nmap-grep', 'masscan-console', 'sx'] as const
export type OutputName = (typeof OUTPUT_NAMES)[number]

/** The outputs `--fields` applies to. */
export const FIELD_OUTPUTS: readonly OutputName[] = ['csv', 'human']

/** The output named `name`; `fields` applies to csv and human only (empty: their defaults), `write` to l9 only. */
export function createOutput(name: OutputName, options: { fields?: readonly string[]; write?: WriteOptions; csvRaw?: boolean } = {}): Output {
  const fields = options.fields ?? []
  switch (name) {
    case 'l9':
      return options.write ? l9OutputWith(options.write) : l9Output
    case 'hostport':
      return hostportOutput
    case 'url':
      return urlOutput
    case 'human':
      return fields.length ? humanFieldsOutput(fields) : humanOutput
    case 'csv':
      return csvOutput(fields, options.csvRaw)
    case 'dnsx':
      return dnsxOutput
    case 'nmap-grep':
      return nmapGrepOutput
    case 'masscan-console':
      return masscanConsoleOutput
    case 'sx':
      return sxOutput
  }
}

/** Descriptions for help texts, in OUTPUT_NAMES order. */
export const OUTPUT_DESCRIPTIONS: Readonly<Record<OutputName, string>> = {
  l9: l9Output.description,
  hostport: hostportOutput.description,
  url: urlOutput.description,
  human: `${humanOutput.description}; fields chosen with --fields`,
  csv: 'CSV (RFC 4180, CRLF rows) with a header row; columns chosen with --fields',
  dnsx: dnsxOutput.description,
  'nmap-grep': nmapGrepOutput.description,
  'masscan-console': masscanConsoleOutput.description,
  sx: sxOutput.description,
}
