/**
 * Every well-shaped subdomain entry received, with the domain it was listed for. Against a
 * stateless server (`--stateless`) only the answers about the given domains: such a server lists
 * the same entries for every name, and only the given names are its own.
 */
import type { RawResponse } from '../../client/index.js'
import type { SuiteContext } from '../context.js'
import { knownAnswers } from './known.js'
import { isSubdomainsPath, nameKey, subdomainEntries } from './lib.js'

export interface ListedEntry {
  domain: string
  index: number
  entry: Record<string, unknown>
  response: RawResponse
}

export async function listedEntries(ctx: SuiteContext): Promise<ListedEntry[]> {
  await knownAnswers(ctx)
  const out: ListedEntry[] = []
  for (const response of ctx.responses) {
    if (!isSubdomainsPath(response.path)) continue
    const entries = subdomainEntries(ctx, response)
    if (!entries) continue
    let domain: string
    try {
      domain = decodeURIComponent(response.path.slice('/api/subdomains/'.length))
    } catch {
      continue // a hostile path of no-5xx: no domain to judge against
    }
    if (ctx.options.stateless && !ctx.known.domains.includes(nameKey(domain))) continue
    entries.forEach((entry, index) => out.push({ domain, index, entry, response }))
  }
  return out
}
