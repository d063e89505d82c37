/** `ip:port` lines (IPv6 bracketed; the host name when there is no IP), what port scanners read. */
import { printable } from '../../validate/printable.js'
import { addressOf } from './address.js'
import type { Output } from './types.js'

/** `--to hostport`. */
export const hostportOutput: Output = {
  name: 'hostport',
  description: 'ip:port per event ([ipv6]:port; host:port when there is no IP)',
  eol: '\n',
  format(event) {
    const address = addressOf(event)
    if (address === '') return { skip: 'no ip or host to write' }
    if (event.port === '') return { skip: 'no port to write' }
    return printable(`${address}:${event.port}`)
  },
}
