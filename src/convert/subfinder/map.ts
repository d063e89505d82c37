/**
 * One subfinder JSON line (`-oJ`: a subdomain and where it was found) → one minimal event,
 * made the way the dnsx converter makes its answers: `event_type` `service`, `host` the
 * subdomain, `ip` only when subfinder resolved it (`-active` adds `ip`), no port (subfinder
 * probes none). Unlike dnsx, a name without an address still gives an event: the name is
 * the finding. The summary says what was found (`api.example.com subdomain of example.com`,
 * then `api.example.com A 192.0.2.1` when resolved), so the fingerprint is the same whichever
 * source found it; the sources go to the tags (`source:crtsh`).
 */
import { emptyEvent } from '../../schema/empty.js'
import { DNSX_EVENT_TYPE } from '../dnsx/map.js'
import { ipVersion, setAddress } from '../common/net.js'
import type { Mapped } from '../common/records.js'
import { eventTime } from '../common/time.js'
import { type Json, pushUnique, str, strings } from '../common/values.js'
import type { ConvertContext } from '../types.js'

/** One subfinder record → one event, or why not. */
export function mapSubfinder(r: Json, ctx: ConvertContext): Mapped {
  const sources = [...strings(r.sources), ...strings(r.source)] // `-cs` writes `sources[]`
  const input = str(r.input).trim().toLowerCase().replace(/\.$/, '')
  if (sources.length === 0 && input === '') return { reason: 'not a subfinder record: no source, sources or input' }
  const name = str(r.host).trim().toLowerCase().replace(/\.$/, '')
  if (name === '') return { reason: 'no host (the subdomain found)' }
  if (ipVersion(name) !== 0) return { reason: `host '${name}' is an IP address, not a subdomain` }
  const ip = str(r.ip).trim()
  if (ip !== '' && ipVersion(ip) === 0) return { reason: `ip '${ip}' is not an IP address` }
  const time = eventTime(r.timestamp, ctx) // subfinder writes none: the run's start
  if (!time.ok) return time
  const e = emptyEvent()
  e.event_type = DNSX_EVENT_TYPE
  e.time = time.value
  setAddress(e, name)
  setAddress(e, ip)
  const found = input !== '' && input !== name ? `${name} subdomain of ${input}` : name
  e.summary = ip === '' ? found : `${found}\n${name} ${ipVersion(ip) === 6 ? 'AAAA' : 'A'} ${e.ip}`
  for (const s of sources) pushUnique(e.tags, `source:${s.trim().toLowerCase()}`)
  if (r.wildcard_certificate === true) pushUnique(e.tags, 'wildcard-certificate')
  return e
}
