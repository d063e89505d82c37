/**
 * Lookups of well-formed names the server holds nothing about. The specification says 200
 * with `Services`/`Leaks` null; the public service answers 404. The two verdicts have their
 * own ids so users can accept the 404 (`--exclude-checks unknown-resource-404`).
 */
import fc from 'fast-check'
import type { RawResponse } from '../../client/index.js'
import { type Check, fail, pass, type Problem } from '../check.js'
import type { SuiteContext } from '../context.js'
import { unknownDomain, unknownIp } from '../gen/paths.js'
import { domainPath, hostPath, isSubdomainsPath, lookupLists, problemAt, subdomainEntries, subdomainsPath } from './lib.js'

/** Both checks ask the same generated questions (same seed name), so the second costs no request. */
const unknownTargets = () => fc.oneof(unknownIp().map(hostPath), unknownDomain().map(domainPath), unknownDomain().map(subdomainsPath))
const EXAMPLES = [hostPath('198.18.7.7'), domainPath('l9kit-unknown.test'), subdomainsPath('l9kit-unknown.test')]

function run(ctx: SuiteContext, judge: (r: RawResponse) => Problem | undefined) {
  return ctx.property('unknown-resource', unknownTargets(), async (path) => judge(await ctx.get(path)), { examples: EXAMPLES })
}

export const unknownResourceEmpty: Check = {
  id: 'unknown-resource-empty',
  description: 'A well-formed IP or domain the server knows nothing about is 200 with `Services`/`Leaks` null (subdomains: [])',
  spec: 'Errors (200: an empty result is not an error); docs/service.md',
  needsState: 'telling an unknown name from a known one needs a store of events',
  async run(ctx) {
    const result = await run(ctx, (r) => {
      if (r.status === 404) return undefined // the departure unknown-resource-404 reports
      if (r.status !== 200) return problemAt(r, `a well-formed name the server does not know was answered ${r.status}, not 200 with an empty result`)
      if (isSubdomainsPath(r.path)) {
        const entries = subdomainEntries(ctx, r)
        if (entries && entries.length > 0) return problemAt(r, `an unknown domain has ${entries.length} subdomains listed`)
        return undefined
      }
      const lists = lookupLists(ctx, r)
      if (lists && lists.Services.length + lists.Leaks.length > 0) return problemAt(r, 'an unknown name was answered with events')
      return undefined
    })
    return result.ok ? pass() : fail(result.problem, result.input, result.path)
  },
}

export const unknownResource404: Check = {
  id: 'unknown-resource-404',
  description: 'An unknown but well-formed IP or domain is not answered 404 (the public service does; the specification says 200 with nulls)',
  spec: 'Errors (200: Services and Leaks may be null); The public API beyond the specification',
  async run(ctx) {
    const result = await run(ctx, (r) => (r.status === 404 ? problemAt(r, 'an unknown but well-formed name was answered 404 instead of 200 with nulls') : undefined))
    return result.ok ? pass() : fail(result.problem, result.input, result.path)
  },
}
