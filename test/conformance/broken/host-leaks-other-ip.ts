/** Broken: a host lookup returns the events of the whole /24, not only of that address. */
import { ipKey, startFake } from '../fake/server.js'

const net = (ip: string) => ipKey(ip).split('.').slice(0, 3).join('.')
export const meant = ['host-events-match-ip']
export const start = () => startFake({ hostEvents: (ip, events) => events.filter((e) => ipKey(e.ip) === ipKey(ip) || (ip.includes('.') && e.ip.includes('.') && net(e.ip) === net(ip))) })
