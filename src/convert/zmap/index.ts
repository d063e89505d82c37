/** ZMap: bare addresses, `saddr,sport`, `-f` CSV (with or without a header row), `-O json`. */
import { firstDataLine, jsonLine, type LineMap, lineConverter } from '../common/lines.js'
import { ipVersion } from '../common/net.js'
import { hasMembers } from '../common/records.js'
import { type Json, str } from '../common/values.js'
import { csvFields, guessNames, isHeaderRow } from './csv.js'
import { mapZmapFields, type ZmapFields } from './map.js'

/** A fresh reader per input: the header row, when there is one, names the later rows. */
function zmapReader(): LineMap {
  let names: string[] | undefined
  return (line, ctx) => {
    if (line.startsWith('{')) return mapJson(line, ctx)
    const fields = csvFields(line)
    if (isHeaderRow(fields)) {
      names = fields
      return []
    }
    const keys = names ?? guessNames(fields)
    if (names && fields.length !== names.length) {
      // A line with no address where saddr belongs is not a result at all (a log line).
      const saddr = fields[names.indexOf('saddr')] ?? ''
      if (ipVersion(saddr.replace(/^"|"$/g, '')) === 0) return { reason: `not a ZMap result: ${line.length > 60 ? `${line.slice(0, 57)}...` : line}` }
      return { reason: `${fields.length} fields, the header row names ${names.length}` }
    }
    const record: ZmapFields = Object.create(null) as ZmapFields
    keys.forEach((k, i) => {
      if (k !== '') record[k] = fields[i] ?? ''
    })
    return mapZmapFields(record, ctx)
  }
}

function mapJson(line: string, ctx: Parameters<LineMap>[1]) {
  const parsed = jsonLine(line)
  return 'json' in parsed ? mapZmapJson(parsed.json, ctx) : parsed
}

/** One `-O json` record: ZMap's field names, values as text. */
function mapZmapJson(r: Json, ctx: Parameters<LineMap>[1]) {
  if (r.saddr === undefined) return { reason: 'not a ZMap record: no saddr' }
  const record: ZmapFields = Object.create(null) as ZmapFields
  for (const [k, v] of Object.entries(r)) record[k] = typeof v === 'boolean' ? String(v) : str(v)
  return mapZmapFields(record, ctx)
}

/** `--from zmap`. */
export const zmap = lineConverter({
  name: 'zmap',
  tool: 'zmap',
  description: 'ZMap output: bare addresses, saddr,sport, -f CSV (header row or not), -O json: one service event per answer',
  detect(head) {
    const line = firstDataLine(head)
    if (line === undefined) return false
    if (line.startsWith('{')) return hasMembers(line, 'saddr')
    const fields = csvFields(line)
    return isHeaderRow(fields) || ipVersion(fields[0] ?? '') !== 0
  },
  // A line on its own (as `auto` checks one): read as a row without a header.
  map: (line, ctx) => zmapReader()(line, ctx),
  reader: zmapReader,
  // `-O json` records: `saddr` names them.
  records: { name: 'zmap', tool: 'zmap', claims: (r) => typeof r.saddr === 'string' && !Object.hasOwn(r, 'event_type'), map: mapZmapJson },
})
