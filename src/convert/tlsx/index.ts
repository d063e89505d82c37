/** tlsx (ProjectDiscovery) JSON Lines, `-json`: one `service` event per TLS handshake. */
import { hasAny, isText } from '../common/claims.js'
import { detectBy, hasMembers, recordConverter } from '../common/records.js'
import type { Json } from '../common/values.js'
import { mapTlsx } from './map.js'

/** What tlsx reports about a handshake (0.0.x releases wrote the names with `-`: `tls-version`). */
const HANDSHAKE = [
  'probe_status',
  'tls_version',
  'tls_connection',
  'cipher',
  'subject_cn',
  'subject_an',
  'subject_dn',
  'issuer_cn',
  'issuer_dn',
  'fingerprint_hash',
  'jarm_hash',
  'not_before',
  'not_after',
  'serial',
  'self_signed',
  'mismatched',
  'probe-status',
  'tls-version',
  'tls-connection',
  'subject-cn',
  'subject-an',
  'subject-dn',
  'issuer-cn',
  'issuer-dn',
  'fingerprint-hash',
  'not-before',
  'not-after',
]

/** `host` or `ip`, `port`, and tlsx's own members at the top level (httpx nests them under `tls`, with a url). */
export const claimsTlsx = (r: Json) =>
  (isText(r, 'host') || isText(r, 'ip')) &&
  Object.hasOwn(r, 'port') &&
  hasAny(r, ...HANDSHAKE) &&
  !hasAny(r, 'url', 'input', 'status_code', 'template-id', 'rec_type', 'scan', '_shodan', 'services', 'event_type', 'request')

/** `--from tlsx`. */
export const tlsx = recordConverter({
  name: 'tlsx',
  tool: 'tlsx',
  description: 'tlsx JSON Lines (-json): one service event per TLS handshake (transport tcp, tls)',
  claims: claimsTlsx,
  detect: (head) =>
    detectBy(head, claimsTlsx, (text) => hasMembers(text, 'host') && hasMembers(text, 'port') && !/"(?:url|status_code|template-id|rec_type|scan)"\s*:/.test(text) && /"(?:probe_status|tls_version|tls_connection|cipher|subject_cn|fingerprint_hash|jarm_hash|tls-version|subject-cn)"\s*:/.test(text)),
  map: mapTlsx,
})
