/** sx (a Go port scanner the format's filter tool reads): plain lines or `--json` lines. */
import { hasAny, isText } from '../common/claims.js'
import { firstDataLine, lineConverter } from '../common/lines.js'
import { hasMembers } from '../common/records.js'
import type { Json } from '../common/values.js'
import { MAC, mapSx, mapSxJson, mapSxPlain, PLAIN } from './map.js'

/** `{"scan", "ip", "port"}`, or an ARP result `{"ip", "mac", "vendor"}` without a port (early releases name no scan). */
export const claimsSx = (r: Json) =>
  isText(r, 'ip') && (isText(r, 'scan') || (isText(r, 'mac') && Object.hasOwn(r, 'vendor') && !Object.hasOwn(r, 'port'))) && !hasAny(r, 'url', 'rec_type', 'event_type', 'template-id')

/** `--from sx`. */
export const sx = lineConverter({
  name: 'sx',
  tool: 'sx',
  description: "sx plain lines ('IP PORT', ARP 'IP MAC VENDOR') or --json lines: one minimal service event per result",
  detect(head) {
    const line = firstDataLine(head)
    if (line === undefined) return false
    if (line.startsWith('{')) {
      // {"scan":…,"ip":…} (naabu has no `scan`); early ARP results: {"ip","mac","vendor"}.
      return hasMembers(line, 'ip') && (hasMembers(line, 'scan') || (hasMembers(line, 'mac') && hasMembers(line, 'vendor') && !hasMembers(line, 'port')))
    }
    const m = PLAIN.exec(line)
    // The first word must be an IP address; the second a port or a MAC address.
    return m !== null && /^[0-9a-f.:]+$/i.test(m[1]!) && (MAC.test(m[2]!) || /^\d+$/.test(m[2]!))
  },
  map: mapSx,
  records: { name: 'sx', tool: 'sx', claims: claimsSx, map: mapSxJson, plain: (line, ctx) => (PLAIN.test(line) ? mapSxPlain(line, ctx) : undefined) },
})
