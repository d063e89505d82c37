/** httpx (ProjectDiscovery) JSON Lines output, `-json`/`-jsonl`: one `service` event per probed URL. */
import { hasAny, isNumber, isText } from '../common/claims.js'
import { detectBy, hasMembers, recordConverter } from '../common/records.js'
import type { Json } from '../common/values.js'
import { httpxDraftCanonical } from './canonical.js'
import { mapHttpx } from './map.js'

/** Members only an httpx probe result has (a numeric `status_code`; dnsx writes a word there). */
const PROBE = ['webserver', 'scheme', 'failed', 'content_length', 'tech', 'technologies', 'title', 'host_ip', 'content_type', 'words', 'lines', 'response_time', 'favicon', 'jarm', 'jarm_hash', 'tls-grab', 'final_url', 'chain_status_codes']

/** A probed `url` (or the `input`) with what httpx reports about it; not a nuclei finding or a katana crawl. */
export const claimsHttpx = (r: Json) =>
  (isText(r, 'url') || isText(r, 'input')) &&
  (isNumber(r, 'status_code') || hasAny(r, ...PROBE)) &&
  !hasAny(r, 'template-id', 'templateID', 'matched-at', 'request', 'source', 'sources', 'event_type', '_shodan', 'services')

/** `--from httpx`. */
export const httpx = recordConverter({
  name: 'httpx',
  tool: 'httpx',
  description: 'httpx JSON Lines (-json): URL, status, title, server, tech, headers, TLS, JARM',
  claims: claimsHttpx,
  detect: (head) =>
    detectBy(head, claimsHttpx, (text) => !hasMembers(text, 'template-id') && (hasMembers(text, 'url') || hasMembers(text, 'input')) && /"(?:status_code|webserver|scheme|failed|content_length|tech)"\s*:/.test(text)),
  map: mapHttpx,
  canonical: httpxDraftCanonical,
})
