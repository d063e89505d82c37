/**
 * Content negotiation for the lookup routes: HTML only for a client whose `accept` header
 * prefers `text/html` over `application/json` (a browser: `text/html,…,*\/*;q=0.8`). No header,
 * `*\/*`, `application/json`, or a tie keep today's JSON, so API clients see no change.
 */

/** The weight `accept` gives a media type: its most specific matching range decides (RFC 9110, 12.5.1). */
export function weightOf(accept: string, type: string, subtype: string): number {
  let best = -1
  let q = 0
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';')
    const [t = '', s = ''] = range.trim().toLowerCase().split('/')
    const specificity = t === type && s === subtype ? 2 : t === type && s === '*' ? 1 : t === '*' && s === '*' ? 0 : -1
    if (specificity <= best) continue
    best = specificity
    q = 1
    for (const param of params) {
      const [name, value] = param.split('=').map((x) => x.trim())
      if (name?.toLowerCase() === 'q') q = qValue(value)
    }
  }
  return best === -1 ? 0 : q
}

/** True when the client asks for a page: `text/html` weighs more than `application/json`. */
export function prefersHtml(accept: string | undefined): boolean {
  if (accept === undefined || accept === '' || accept === '*/*' || accept === 'application/json') return false
  const html = weightOf(accept, 'text', 'html')
  return html > 0 && html > weightOf(accept, 'application', 'json')
}

/** A q parameter as a number in 0–1 (a malformed one counts as 0: that range is not wanted). */
function qValue(text: string | undefined): number {
  if (text === undefined || !/^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(text)) return 0
  return Number(text)
}
