/** tlsx (ProjectDiscovery) JSON Lines, `-json`: one `service` event per TLS handshake. */
import { hasMembers, jsonHead, recordConverter } from '../common/records.js'
import { mapTlsx } from './map.js'

/** `--from tlsx`. */
export const tlsx = recordConverter({
  name: 'tlsx',
  tool: 'tlsx',
  description: 'tlsx JSON Lines (-json): one service event per TLS handshake (transport tcp, tls)',
  detect(head) {
    const text = jsonHead(head)
    if (text === undefined || !hasMembers(text, 'host') || !hasMembers(text, 'port')) return false
    // Its own members at the top level of the line (httpx nests them under `tls`, with a url).
    if (/"(?:url|status_code|template-id|rec_type|scan)"\s*:/.test(text)) return false
    return /"(?:probe_status|tls_version|tls_connection|cipher|subject_cn|fingerprint_hash|jarm_hash)"\s*:/.test(text)
  },
  map: mapTlsx,
})
