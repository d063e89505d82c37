/**
 * masscan's list output (`-oL`): `#masscan`, then `open tcp 80 192.0.2.1 1727151519` and
 * `banner tcp 80 192.0.2.1 1727151519 http.server nginx/1.24.0` lines, then `# end`.
 */
import type { Converter } from '../types.js'
import { convertLines, type LineResult, type LineState, unescapeBanner } from './lines.js'

const RECORD = /^(?:open|closed|up|banner) (?:tcp|udp|sctp|icmp|arp) \d+ \S+ \d+/m

export const masscanList: Converter = {
  name: 'masscan-list',
  tool: 'masscan',
  description: 'masscan list output (-oL): open ports and banners',
  detect: (head) => /^\uFEFF?#masscan\b/.test(head) || RECORD.test(head),
  convert: (input, ctx) => convertLines(input, ctx, parseListLine),
}

function parseListLine(text: string, state: LineState): LineResult {
  if (text.startsWith('#')) return undefined // `#masscan`, `# end`
  const parts = text.split(' ')
  const [status = '', proto = '', port = '', ip = '', timestamp = ''] = parts
  const isBanner = status === 'banner'
  if (isBanner ? parts.length < 6 : parts.length !== 5) {
    return [{ problem: `not a masscan list record: expected '${isBanner ? 'banner PROTO PORT IP TIME TYPE TEXT' : 'STATUS PROTO PORT IP TIME'}'` }]
  }
  // Ten digits since 2001: a shorter time on a cut last line lost its end.
  if (!/^\d+$/.test(timestamp) || (state.unterminated && !isBanner && timestamp.length < 10)) {
    return [{ problem: `'${timestamp}' is not a Unix time` }]
  }
  if (!isBanner) return [{ ip, port, proto, status, timestamp }]
  return [{ ip, port, proto, status, timestamp, service: parts[5]!, banner: unescapeBanner(parts.slice(6).join(' ')) }]
}
