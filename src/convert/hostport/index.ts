/** Plain `host:port` lines (`ip:port`, `name:port`, `[ipv6]:port`): minimal `service` events. */
import { firstDataLine, lineConverter } from '../common/lines.js'
import { splitHostPort } from '../common/net.js'
import { mapHostPort } from './map.js'

/** `--from hostport`. */
export const hostport = lineConverter({
  name: 'hostport',
  tool: 'hostport',
  description: 'lines of ip:port, host:port or [ipv6]:port: minimal service events',
  detect(head) {
    const line = firstDataLine(head)
    return line !== undefined && 'port' in splitHostPort(line.split(/\s+/)[0]!.replace(/\/(?:tcp|udp)$/i, ''))
  },
  map: mapHostPort,
})
