/**
 * fast-check arbitraries for the l9format world, exported for users who test their own
 * tools and servers: event documents (strict, lenient, one defect away), lookup answers,
 * domain names, IP addresses with their other spellings, and Go duration strings.
 */
export { type EventOptions, type Given, lenientEvent, strictEvent } from './gen/event.js'
export { MEMBER_KINDS, type NearValid, nearValidEvent } from './gen/near-valid.js'
export { type ProtocolFrequency, protocolObject, protocolObjects, sshExtension } from './gen/protocols.js'
export { type LookupOptions, lookupResult, subdomainEntry } from './gen/api.js'
export {
  cidr,
  type DomainOptions,
  domainName,
  ipv4,
  ipv4Spelling,
  ipv6,
  ipv6Canonical,
  ipv6Spelling,
  label,
  macAddress,
  type Spelled,
  subdomainOf,
} from './gen/net.js'
export { canonicalTimeText, lenientTimeText, millisTimeText } from './gen/time.js'
export { queryFor } from './gen/query.js'
export { GO_DURATION_UNITS, type GoDurationCase, goDuration, goDurationCase } from './gen/duration.js'
export { anyText, dataMap, fingerprint64, headerMap, hex, ODD_HEADER_NAMES, summaryText } from './gen/text.js'
