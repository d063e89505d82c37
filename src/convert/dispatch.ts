/**
 * Which format converts each record of a JSON input. With `--from auto`, every record is
 * converted by the format that claims it (Converter.records.claims: its identifying members),
 * so two tools' output concatenated converts each record as its own tool's; a record no
 * format claims is reported and counted. With an explicit `--from`, a record that another
 * format claims (and the named one does not) is reported, never converted with the wrong
 * rules; a record nobody claims is left to the named format, which converts or reports it.
 */
import { convertRecords, type Pick } from './common/records.js'
import type { Json } from './common/values.js'
import type { Converter, RecordRules } from './types.js'

/** The formats that read JSON records, in detection order. */
const readers = (all: readonly Converter[]) => all.flatMap((c) => (c.records ? [c.records] : []))

/** The first member names of a record, for a message. */
function members(record: Json): string {
  const names = Object.keys(record)
  if (names.length === 0) return 'an empty object'
  const shown = names.slice(0, 6).map((n) => (n.length > 24 ? `${n.slice(0, 21)}...` : n))
  return `members ${shown.join(', ')}${names.length > shown.length ? ', …' : ''}`
}

/** `--from auto` on a JSON input: each record by the format that claims it; `guess` (the format of the head) also reads lines that are not JSON when it has plain lines (sx). */
export function autoRecords(all: readonly Converter[], guess?: Converter): Converter {
  const formats = readers(all)
  const pick: Pick = (record) => formats.find((f) => f.claims(record)) ?? { reason: `no format recognises this record (${members(record)}); name its format with --from` }
  return {
    name: 'auto',
    tool: 'auto',
    description: 'each JSON record converted by the format that claims it',
    detect: () => false,
    convert: (input, ctx) => convertRecords(input, ctx, pick, guess?.records),
  }
}

/** `--from NAME` for a JSON format: its converter, reporting the records another format claims. */
export function fitted(converter: Converter, all: readonly Converter[]): Converter {
  const own = converter.records
  if (!own || !converter.readsRecords) return converter
  const others = readers(all).filter((f) => f !== own)
  const pick: Pick = (record) => {
    if (own.claims(record)) return own
    const other = others.find((f) => f.claims(record))
    return other ? misfit(own, other, record) : own
  }
  return { ...converter, convert: (input, ctx) => convertRecords(input, ctx, pick) }
}

function misfit(own: RecordRules, other: RecordRules, record: Json): { reason: string } {
  return { reason: `not a ${own.name} record: it is a ${other.name} record (${members(record)}); use --from ${other.name}, or --from auto for mixed input` }
}
