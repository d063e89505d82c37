/** HTTP summaries and titles, written the same way by every converter. */

/**
 * The `summary` of an HTTP service: the status line, the header lines, then a blank line and
 * `title: …` when there is a title. (What the format's identifier puts first: the response
 * head; the body itself is not copied.)
 */
export function httpSummary(statusLine: string, headerLines: readonly string[], title: string): string {
  // An empty status line is left out; every other line is kept, even an empty one.
  let text = statusLine
  let empty = statusLine === ''
  for (const line of headerLines) {
    text = empty ? line : `${text}\n${line}`
    empty = false
  }
  if (title !== '') text = empty ? `\ntitle: ${title}` : `${text}\n\ntitle: ${title}`
  return text
}

/** httpSummary() with the header lines given as one text (HeaderBuilder.text(), '' for none). */
export function httpSummaryText(statusLine: string, headerText: string, title: string): string {
  const text = statusLine === '' ? headerText : headerText === '' ? statusLine : `${statusLine}\n${headerText}`
  if (title === '') return text
  return text === '' ? `\ntitle: ${title}` : `${text}\n\ntitle: ${title}`
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }

/** The text of the first `<title>` of an HTML body, entities decoded and blanks collapsed. */
export function titleOf(body: string): string {
  const m = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(body.length > 65536 ? body.slice(0, 65536) : body)
  if (!m) return ''
  return (m[1] ?? '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, e: string) => {
      if (e[0] === '#') {
        const code = e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1))
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all
      }
      return ENTITIES[e.toLowerCase()] ?? all
    })
    .replace(/\s+/g, ' ')
    .trim()
}
