/** Helpers the checks share: paths, reading lookup answers, IP and name comparison, describing answers. */
import { isIPv4, isIPv6 } from 'node:net'
import { type RawResponse, segment } from '../../client/index.js'
import { type Issue, validateDocument } from '../../validate/index.js'
import type { Problem } from '../check.js'
import type { Identity, SuiteContext } from '../context.js'

export const hostPath = (ip: string) => `/host/${segment(ip)}`
export const domainPath = (domain: string) => `/domain/${segment(domain)}`
export const subdomainsPath = (domain: string) => `/api/subdomains/${segment(domain)}`

export const isLookupPath = (path: string) => path.startsWith('/host/') || path.startsWith('/domain/')
export const isSubdomainsPath = (path: string) => path.startsWith('/api/subdomains/')

/**
 * Issues the shape checks leave to a more specific check, so one defect fails one check:
 * times and fingerprints (event-time-format, event-fingerprint-format), `last_seen` and
 * `distinct_ips` (subdomain-last-seen, subdomain-distinct-ips).
 */
export function ownedElsewhere(issue: Issue): boolean {
  if (issue.code === 'bad_timestamp' || issue.code === 'bad_fingerprint') return true
  if (/^\/\d+\/distinct_ips$/.test(issue.pointer) && issue.code === 'out_of_range') return true
  return false
}

/** Shape errors of a lookup result (those owned by other checks left out). */
export function lookupShapeErrors(body: unknown): Issue[] {
  return validateDocument('lookup-result', body).errors.filter((i) => !ownedElsewhere(i))
}

/** Shape errors of a subdomain list (those owned by other checks left out). */
export function subdomainsShapeErrors(body: unknown): Issue[] {
  return validateDocument('subdomains', body).errors.filter((i) => !ownedElsewhere(i))
}

type Obj = Record<string, unknown>
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The event lists of a well-shaped lookup answer; undefined when the answer is not one (the shape check judges that). */
export function lookupLists(ctx: SuiteContext, response: RawResponse): { Services: Obj[]; Leaks: Obj[] } | undefined {
  if (response.status !== 200) return undefined
  const body = ctx.json(response)
  if (!isObject(body) || lookupShapeErrors(body).length > 0) return undefined
  return { Services: (body.Services as Obj[] | null) ?? [], Leaks: (body.Leaks as Obj[] | null) ?? [] }
}

/** The entries of a well-shaped subdomain answer; undefined otherwise. */
export function subdomainEntries(ctx: SuiteContext, response: RawResponse): Obj[] | undefined {
  if (response.status !== 200) return undefined
  const body = ctx.json(response)
  if (!Array.isArray(body) || subdomainsShapeErrors(body).length > 0) return undefined
  return body as Obj[]
}

/** Every event of every well-shaped lookup answer received so far, with where it came from. */
export function seenEvents(ctx: SuiteContext): { event: Obj; pointer: string; response: RawResponse }[] {
  const out: { event: Obj; pointer: string; response: RawResponse }[] = []
  for (const response of ctx.responses) {
    if (!isLookupPath(response.path)) continue
    const lists = lookupLists(ctx, response)
    if (!lists) continue
    for (const member of ['Services', 'Leaks'] as const) lists[member].forEach((event, i) => out.push({ event, pointer: `/${member}/${i}`, response }))
  }
  return out
}

/** One comparable key per IP address, whatever its spelling (IPv4-mapped IPv6 counts as the IPv4 address). */
export function ipKey(text: string): string | undefined {
  if (isIPv4(text)) return text.split('.').map(Number).join('.')
  const bare = text.replace(/^\[|\]$/g, '')
  if (!isIPv6(bare)) return undefined
  const host = new URL(`http://[${bare}]/`).hostname.slice(1, -1)
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host)
  if (mapped) {
    const hi = parseInt(mapped[1]!, 16)
    const lo = parseInt(mapped[2]!, 16)
    return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.')
  }
  return host
}

/** A host name as compared: lower case, no trailing dot. */
export const nameKey = (name: string) => name.toLowerCase().replace(/\.$/, '')

/** True when `host` is `domain` or a name below it (`a.example.com` for `example.com`; not `notexample.com`). */
export function withinDomain(host: string, domain: string): boolean {
  const h = nameKey(host)
  const d = nameKey(domain)
  return h === d || h.endsWith(`.${d}`)
}

/** How a request is shown in reports (never the key itself). */
export function describeRequest(response: RawResponse, identity: Identity | undefined): string {
  const who = identity === 'wrong' ? 'a wrong api-key' : response.keyed ? 'api-key' : 'no api-key'
  return `${response.method} ${response.path} (${who})`
}

/** Status line, the headers that matter, and the start of the body. */
export function describeResponse(response: RawResponse): string {
  const lines = [statusLine(response)]
  for (const name of ['content-type', 'x-limited-for']) {
    if (response.headers[name] !== undefined) lines.push(`${name}: ${response.headers[name]}`)
  }
  const body = response.body.length > 300 ? `${response.body.slice(0, 300)}… (${response.body.length} characters)` : response.body
  if (body !== '') lines.push('', body)
  return lines.join('\n')
}

/** `404 Not Found`, or just `404` when the server sent no reason phrase. */
export const statusLine = (r: RawResponse) => (r.statusText ? `${r.status} ${r.statusText}` : String(r.status))

/** A problem about one answer. */
export const problemAt = (response: RawResponse, message: string): Problem => ({ message, response })

/** The first problem over a list, if any (checks over recorded answers). */
export function firstProblem<T>(items: T[], judge: (item: T) => Problem | undefined): Problem | undefined {
  for (const item of items) {
    const p = judge(item)
    if (p) return p
  }
  return undefined
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`
