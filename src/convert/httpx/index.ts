/** httpx (ProjectDiscovery) JSON Lines output, `-json`/`-jsonl`: one `service` event per probed URL. */
import { hasMembers, jsonHead, recordConverter } from '../common/records.js'
import { httpxDraftCanonical } from './canonical.js'
import { mapHttpx } from './map.js'

/** `--from httpx`. */
export const httpx = recordConverter({
  name: 'httpx',
  tool: 'httpx',
  description: 'httpx JSON Lines (-json): URL, status, title, server, tech, headers, TLS, JARM',
  detect(head) {
    const text = jsonHead(head)
    if (text === undefined || hasMembers(text, 'template-id')) return false
    return (hasMembers(text, 'url') || hasMembers(text, 'input')) && /"(?:status_code|webserver|scheme|failed|content_length|tech)"\s*:/.test(text)
  },
  map: mapHttpx,
  canonical: httpxDraftCanonical,
})
