/**
 * Before the checks: one request to see that the server answers at all, then the names the
 * user gave (`--domain`, `--ip`) are looked up and a few more found in their answers, so the
 * checks judge real events and not only empty answers (not with `stateless`).
 */
import { isIP } from 'node:net'
import type { SuiteContext } from './context.js'
import { domainPath, hostPath, ipKey, lookupLists, nameKey, subdomainEntries, subdomainsPath, withinDomain } from './checks/lib.js'

/** The unknown address the first request asks about (benchmarking range, RFC 2544: no server holds it). */
export const PREFLIGHT_IP = '198.18.0.1'
const MORE_IPS = 3
const MORE_DOMAINS = 2

/** Throws the client's error when the server cannot be reached. */
export async function discover(ctx: SuiteContext): Promise<void> {
  await ctx.get(hostPath(PREFLIGHT_IP))
  const { domains = [], ips = [] } = ctx.options
  for (const d of domains) add(ctx.known.domains, nameKey(d))
  for (const ip of ips) add(ctx.known.ips, ip)
  const foundIps: string[] = []
  const foundDomains: string[] = []
  for (const domain of [...ctx.known.domains]) {
    const lists = lookupLists(ctx, await ctx.get(domainPath(domain)))
    for (const event of [...(lists?.Services ?? []), ...(lists?.Leaks ?? [])]) {
      if (typeof event.ip === 'string' && isIP(event.ip) && !ctx.known.ips.some((k) => ipKey(k) === ipKey(event.ip as string))) add(foundIps, event.ip)
    }
    for (const entry of subdomainEntries(ctx, await ctx.get(subdomainsPath(domain))) ?? []) {
      const name = String(entry.subdomain)
      if (withinDomain(name, domain) && nameKey(name) !== domain) add(foundDomains, nameKey(name))
    }
  }
  for (const ip of ctx.known.ips) await ctx.get(hostPath(ip))
  // A stateless server answers every name with the same example: only the names given are its own.
  if (ctx.options.stateless) return
  for (const ip of foundIps.slice(0, MORE_IPS)) {
    add(ctx.known.ips, ip)
    await ctx.get(hostPath(ip))
  }
  for (const name of foundDomains.slice(0, MORE_DOMAINS)) {
    add(ctx.known.domains, name)
    await ctx.get(domainPath(name))
    await ctx.get(subdomainsPath(name))
  }
}

const add = (list: string[], value: string) => {
  if (!list.includes(value)) list.push(value)
}
