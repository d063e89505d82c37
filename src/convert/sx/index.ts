/** sx (a Go port scanner the format's filter tool reads): plain lines or `--json` lines. */
import { firstDataLine, lineConverter } from '../common/lines.js'
import { hasMembers } from '../common/records.js'
import { MAC, mapSx, PLAIN } from './map.js'

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
})
