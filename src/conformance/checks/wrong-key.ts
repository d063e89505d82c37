/**
 * A key the server cannot know. l9kit's service refuses it (401, docs/service.md); whatever a server does, it must
 * never serve a wrong key more than it serves a caller without a key.
 */
import type { RawResponse } from '../../client/index.js'
import { type Check, fail, pass, type Problem } from '../check.js'
import type { SuiteContext } from '../context.js'
import { PREFLIGHT_IP } from '../discover.js'
import { domainPath, hostPath, lookupLists, problemAt, statusLine, subdomainEntries, subdomainsPath } from './lib.js'

/** The paths asked with a wrong key: the richest known answers (subdomains are capped per plan). */
function paths(ctx: SuiteContext): string[] {
  const domain = ctx.known.domains[0] ?? 'example.com'
  return [subdomainsPath(domain), domainPath(domain), hostPath(ctx.known.ips[0] ?? PREFLIGHT_IP)]
}

const refused = (r: RawResponse) => r.status === 401 || r.status === 403

export const wrongKeyRefused: Check = {
  id: 'wrong-key-refused',
  description: 'A request with an api-key the server does not know is refused (401 or 403)',
  spec: 'Authentication (result of a wrong key: not shown); docs/service.md (401)',
  needsState: 'telling a wrong key from a right one needs a store of keys',
  async run(ctx) {
    for (const path of paths(ctx)) {
      const r = await ctx.get(path, 'wrong')
      if (!refused(r)) return fail(problemAt(r, `a wrong api-key was answered ${statusLine(r)}, not refused with 401`))
    }
    return pass()
  },
}

/** How much an answer serves: events of a lookup, entries of a subdomain list. */
function served(ctx: SuiteContext, r: RawResponse): number | undefined {
  const entries = subdomainEntries(ctx, r)
  if (entries) return entries.length
  const lists = lookupLists(ctx, r)
  return lists ? lists.Services.length + lists.Leaks.length : undefined
}

export const wrongKeyNotElevated: Check = {
  id: 'wrong-key-not-elevated',
  description: 'A wrong api-key is never served more than a request without a key',
  spec: 'Authentication (plan level affects the service)',
  async run(ctx) {
    for (const path of paths(ctx)) {
      const wrong = await ctx.get(path, 'wrong')
      if (wrong.status !== 200) continue
      const anonymous = await ctx.get(path, 'anonymous')
      const problem = compare(ctx, wrong, anonymous)
      if (problem) return fail(problem)
    }
    return pass()
  },
}

function compare(ctx: SuiteContext, wrong: RawResponse, anonymous: RawResponse): Problem | undefined {
  if (anonymous.status !== 200) return problemAt(wrong, `a wrong api-key was served (200) where no key gets ${anonymous.status}`)
  const w = served(ctx, wrong)
  const a = served(ctx, anonymous)
  if (w !== undefined && a !== undefined && w > a) return problemAt(wrong, `a wrong api-key was served ${w} results where no key gets ${a}`)
  return undefined
}
