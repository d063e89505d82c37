/** RustScan greppable output (`-g`): one minimal `service` event per open port. */
import { firstDataLine, lineConverter } from '../common/lines.js'
import { GREPPABLE, mapRustscan } from './map.js'

/** `--from rustscan`. */
export const rustscan = lineConverter({
  name: 'rustscan',
  tool: 'rustscan',
  description: "RustScan greppable lines (-g, 'ip -> [ports]'): one service event per port",
  detect(head) {
    const line = firstDataLine(head)
    return line !== undefined && GREPPABLE.test(line)
  },
  map: mapRustscan,
})
