/** The answers about the names the server is known to hold (fetched once, shared by the checks). */
import type { RawResponse } from '../../client/index.js'
import type { SuiteContext } from '../context.js'
import { domainPath, hostPath, subdomainsPath } from './lib.js'

export interface KnownAnswers {
  hosts: { ip: string; response: RawResponse }[]
  domains: { domain: string; response: RawResponse }[]
  subdomains: { domain: string; response: RawResponse }[]
}

/** Host, domain and subdomain answers for every known IP and domain (cached requests). */
export async function knownAnswers(ctx: SuiteContext): Promise<KnownAnswers> {
  const out: KnownAnswers = { hosts: [], domains: [], subdomains: [] }
  for (const ip of ctx.known.ips) out.hosts.push({ ip, response: await ctx.get(hostPath(ip)) })
  for (const domain of ctx.known.domains) {
    out.domains.push({ domain, response: await ctx.get(domainPath(domain)) })
    out.subdomains.push({ domain, response: await ctx.get(subdomainsPath(domain)) })
  }
  return out
}
