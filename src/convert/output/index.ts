/** The output formats of `l9kit convert --to`. */
import { csvOutput } from './csv.js'
import { hostportOutput } from './hostport.js'
import { humanOutput } from './human.js'
import { l9Output, l9OutputWith } from './l9.js'
import type { WriteOptions } from '../../normalize/index.js'
import type { Output } from './types.js'
import { urlOutput } from './url.js'

export { CSV_COLUMNS, csvField, csvOutput, DEFAULT_COLUMNS, UnknownColumnError } from './csv.js'
export { hostportOutput } from './hostport.js'
export { humanOutput, humanText } from './human.js'
export { l9Output, l9OutputWith } from './l9.js'
export { isSkip, type Output, type Skip } from './types.js'
export { urlOutput } from './url.js'

/** The names `--to` accepts. */
export const OUTPUT_NAMES = ['l9', 'hostport', 'url', 'human', 'csv'] as const
export type OutputName = (typeof OUTPUT_NAMES)[number]

/** The output named `name`; `columns` applies to csv only, `write` to l9 only. */
export function createOutput(name: OutputName, options: { columns?: readonly string[]; write?: WriteOptions } = {}): Output {
  switch (name) {
    case 'l9':
      return options.write ? l9OutputWith(options.write) : l9Output
    case 'hostport':
      return hostportOutput
    case 'url':
      return urlOutput
    case 'human':
      return humanOutput
    case 'csv':
      return csvOutput(options.columns)
  }
}

/** Descriptions for help texts, in OUTPUT_NAMES order. */
export const OUTPUT_DESCRIPTIONS: Readonly<Record<OutputName, string>> = {
  l9: l9Output.description,
  hostport: hostportOutput.description,
  url: urlOutput.description,
  human: humanOutput.description,
  csv: 'CSV (RFC 4180, CRLF rows) with a header row; columns chosen with --columns',
}
