/**
 * ZMap's CSV lines: its default output (bare addresses, or `saddr,sport`), `-f` field lists
 * with a header row, or without one (`--no-header-row`). ZMap quotes a value holding a comma
 * and escapes nothing inside: a quoted field ends at the first `"` followed by a comma.
 */

/** The fields of one CSV line. */
export function csvFields(line: string): string[] {
  const out: string[] = []
  let at = 0
  while (at <= line.length) {
    if (line[at] === '"') {
      const end = line.indexOf('",', at + 1)
      if (end === -1) {
        out.push(line.slice(at + 1, line.endsWith('"') && line.length > at + 1 ? -1 : undefined))
        break
      }
      out.push(line.slice(at + 1, end))
      at = end + 2
      continue
    }
    const comma = line.indexOf(',', at)
    if (comma === -1) {
      out.push(line.slice(at))
      break
    }
    out.push(line.slice(at, comma))
    at = comma + 1
  }
  return out.map((f) => f.trim())
}

/** A header row: field names only (`saddr` among them). */
export function isHeaderRow(fields: readonly string[]): boolean {
  return fields.includes('saddr') && fields.every((f) => /^[a-z][a-z0-9_]*$/.test(f))
}

/** ZMap's `classification` values (for rows without a header, told by their shape). */
const CLASSIFICATIONS = /^(?:synack|rst|echoreply|unreach|udp|icmp|other|timxceed|[a-z]+_[a-z_]+)$/
const TIME_TEXT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/

/**
 * Names for a row without a header: ZMap's default is `saddr` then `sport`; other columns
 * are named only when their shape says what they are (a time, a classification).
 */
export function guessNames(fields: readonly string[]): string[] {
  return fields.map((f, i) => {
    if (i === 0) return 'saddr'
    if (i === 1 && /^\d+$/.test(f)) return 'sport'
    if (TIME_TEXT.test(f)) return 'timestamp_str'
    if (CLASSIFICATIONS.test(f)) return 'classification'
    return ''
  })
}
