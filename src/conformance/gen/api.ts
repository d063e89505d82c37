/** Arbitraries of the lookup API's answers: lookup results and subdomain entries. */
import fc, { type Arbitrary } from 'fast-check'
import { record } from './record.js'
import type { LookupResult, SubdomainEntry } from '../../schema/index.js'
import { type Given, strictEvent } from './event.js'
import { domainName, subdomainOf } from './net.js'
import { millisTimeText } from './time.js'

export interface LookupOptions {
  /** `ip` of every event (a host lookup's answer). */
  ip?: Given<string>
  /** `host` of every event (a domain lookup's answer uses the domain or its subdomains). */
  host?: Given<string>
  /** Most events per list (default 3). */
  maxEvents?: number
}

/**
 * A lookup result as the specification allows it: `Services` only `service` events,
 * `Leaks` only `leak` events, each list possibly null (nothing found) or empty.
 */
export function lookupResult(options: LookupOptions = {}): Arbitrary<LookupResult> {
  const { maxEvents = 3, ...where } = options
  const list = (type: string) =>
    fc.oneof(
      { weight: 1, arbitrary: fc.constant(null) },
      { weight: 3, arbitrary: fc.array(strictEvent({ ...where, type }), { maxLength: maxEvents }) },
    )
  return record({ Services: list('service'), Leaks: list('leak') })
}

/** A subdomain entry of `domain` (default: any domain): positive `distinct_ips`, millisecond `last_seen`. */
export function subdomainEntry(domain?: Given<string>): Arbitrary<SubdomainEntry> {
  const parent = domain === undefined ? domainName({ maxLabels: 2 }) : typeof domain === 'string' ? fc.constant(domain) : domain
  return parent.chain((d) =>
    record({
      subdomain: subdomainOf(d),
      distinct_ips: fc.integer({ min: 1, max: 500 }),
      last_seen: millisTimeText(),
    }),
  )
}
