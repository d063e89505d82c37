/** Plain URL lines (`https://example.com:8443/admin`): minimal `service` events. */
import { firstDataLine, lineConverter } from '../common/lines.js'
import { parseUrl } from '../common/net.js'
import { mapUrl } from './map.js'

/** `--from url`. */
export const url = lineConverter({
  name: 'url',
  tool: 'url',
  description: 'lines of URLs (scheme://host[:port]/path): minimal service events, default ports per scheme',
  detect(head) {
    const line = firstDataLine(head)
    return line !== undefined && parseUrl(line.split(/\s+/)[0]!) !== undefined
  },
  map: mapUrl,
})
