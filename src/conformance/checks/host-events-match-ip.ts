/** A host lookup returns only events of that IP address. */
import { isIPv6 } from 'node:net'
import fc from 'fast-check'
import { type Check, fail, pass, skip } from '../check.js'
import { hostPath, ipKey, lookupLists, plural, problemAt } from './lib.js'

/** The address written in full (`2001:0db8:0000:…`): the same address, another spelling. */
function fullSpelling(ip: string): string {
  const key = ipKey(ip)!
  const [head = '', tail = ''] = key.split('::')
  const left = head === '' ? [] : head.split(':')
  const right = tail === '' ? [] : tail.split(':')
  const groups = key.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : key.split(':')
  return groups.map((g) => g.padStart(4, '0')).join(':')
}

export const hostEventsMatchIp: Check = {
  id: 'host-events-match-ip',
  description: 'GET /host/:ip returns only events whose `ip` is that address (any spelling of it)',
  spec: 'Endpoints: Host details',
  async run(ctx) {
    const ips = ctx.known.ips.filter((ip) => ipKey(ip) !== undefined)
    const spellings = ips.flatMap((ip) => (isIPv6(ip) && !ipKey(ip)!.includes('.') ? [ip, fullSpelling(ip)] : [ip]))
    if (spellings.length === 0) return skip('no IP address known (give --ip, or --domain to find some)')
    let events = 0
    const result = await ctx.property('host-events-match-ip', fc.constantFrom(...spellings), async (ip) => {
      const response = await ctx.get(hostPath(ip))
      const lists = lookupLists(ctx, response)
      if (!lists) return undefined
      for (const member of ['Services', 'Leaks'] as const) {
        for (const [i, event] of lists[member].entries()) {
          events++
          if (typeof event.ip !== 'string' || ipKey(event.ip) !== ipKey(ip)) {
            return problemAt(response, `/${member}/${i} has ip ${JSON.stringify(event.ip)}, not ${ip}`)
          }
        }
      }
      return undefined
    }, { examples: ips, runs: Math.min(ctx.maxExamples, spellings.length * 2) })
    if (!result.ok) return fail(result.problem, result.input, result.path)
    if (events === 0) return skip('the known addresses have no events')
    return pass(`${plural(spellings.length, 'address', 'addresses')}, ${plural(events, 'event')}`)
  },
}
