/**
 * One tlsx JSON line (`-json`: one TLS handshake) → one `service` event: transport
 * `[tcp, tls]`, protocol `tls`, the certificate and handshake in `ssl` (tlsx gives no key
 * algorithm or size), JARM, and a summary of the handshake as the ZGrab2 converter writes it.
 * A failed probe (`probe_status: false`) found no TLS service: no event.
 */
import { emptyEvent } from '../../schema/empty.js'
import { ipVersion, portText, setAddress } from '../common/net.js'
import type { Mapped } from '../common/records.js'
import { eventTime } from '../common/time.js'
import { fillTlsx } from '../common/tlsx.js'
import { type Json, pushUnique, str } from '../common/values.js'
import type { ConvertContext } from '../types.js'
import { tlsSummary } from '../zgrab2/tls.js'

/** Members that say a certificate or handshake fact, as tags when true. */
const FLAG_TAGS: readonly [string, string][] = [
  ['expired', 'expired'],
  ['self_signed', 'self-signed'],
  ['mismatched', 'mismatched'],
  ['revoked', 'revoked'],
  ['untrusted', 'untrusted'],
  ['wildcard_certificate', 'wildcard-certificate'],
]

/**
 * tlsx 0.0.x wrote its member names with `-` (`tls-version`, `subject-cn`, `fingerprint-hash`,
 * `not-after`, …) where later releases write `_`: the record with each such name also under
 * its `_` spelling (when that one is absent).
 */
function currentNames(r: Json): Json {
  let out: Json | undefined
  for (const key of Object.keys(r)) {
    if (!key.includes('-')) continue
    const name = key.replaceAll('-', '_')
    if (Object.hasOwn(r, name)) continue
    out ??= Object.assign(Object.create(null) as Json, r)
    out[name] = r[key]
  }
  return out ?? r
}

/** One tlsx record → one event (none for a failed probe), or why not. */
export function mapTlsx(record: Json, ctx: ConvertContext): Mapped {
  const r = currentNames(record)
  if (r.probe_status === false) return []
  const time = eventTime(r.timestamp, ctx)
  if (!time.ok) return time
  const e = emptyEvent()
  e.event_type = 'service'
  e.time = time.value
  const ip = str(r.ip).trim()
  if (ip !== '' && ipVersion(ip) === 0) return { reason: `ip '${ip}' is not an IP address` }
  setAddress(e, str(r.host))
  setAddress(e, ip)
  // The name tlsx sent (SNI) names the host when the target was an address.
  const sni = str(r.sni).trim()
  if (e.host === '' && sni !== '' && ipVersion(sni) === 0) setAddress(e, sni)
  if (e.ip === '' && e.host === '') return { reason: 'no host or ip' }
  const port = portText(r.port) // a string in tlsx's output
  if (!port) return { reason: r.port === undefined ? 'no port' : `port ${JSON.stringify(r.port)} is not 1–65535` }
  e.port = port
  e.transport = ['tcp', 'tls']
  e.protocol = 'tls'
  const problem = fillTlsx(e, r, e.host)
  if (problem) return problem
  e.ssl.jarm = str(r.jarm_hash)
  for (const [member, tag] of FLAG_TAGS) if (r[member] === true) pushUnique(e.tags, tag)
  const serial = str(r.serial).trim()
  e.summary = serial === '' ? tlsSummary(e) : `${tlsSummary(e)}\nserial: ${serial}`
  return e
}
