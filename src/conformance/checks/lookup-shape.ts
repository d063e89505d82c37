/** 200 answers of the host and domain lookups are lookup results: `Services`/`Leaks`, each an array of events or null. */
import fc from 'fast-check'
import type { RawResponse } from '../../client/index.js'
import { type Check, fail, pass, type Problem, skip } from '../check.js'
import type { SuiteContext } from '../context.js'
import { domainName, ipv4, ipv6 } from '../gen/net.js'
import { knownAnswers } from './known.js'
import { domainPath, firstProblem, hostPath, isLookupPath, lookupShapeErrors, plural, problemAt } from './lib.js'

function judge(ctx: SuiteContext, r: RawResponse): Problem | undefined {
  if (r.status !== 200) return undefined
  const body = ctx.json(r)
  if (body === undefined) return undefined // not JSON: content-type-json judges it
  const errors = lookupShapeErrors(body)
  if (errors.length === 0) return undefined
  const first = errors[0]!
  const more = errors.length > 1 ? ` (and ${plural(errors.length - 1, 'more problem')})` : ''
  return problemAt(r, `the body is not a lookup result: ${first.pointer || '(body)'}: ${first.message}${more}`)
}

export const lookupShape: Check = {
  id: 'lookup-shape',
  description: '200 answers of GET /host/:ip and GET /domain/:domain validate as lookup results (events in the strict profile)',
  spec: 'Resources: Lookup result; Event document',
  async run(ctx) {
    await knownAnswers(ctx)
    const known = [...ctx.known.ips.map(hostPath), ...ctx.known.domains.map(domainPath)]
    const generated = fc.oneof(ipv4().map(hostPath), ipv6().map(hostPath), domainName().map(domainPath))
    const target = known.length > 0 ? fc.oneof(fc.constantFrom(...known), generated) : generated
    const result = await ctx.property('lookup-shape', target, async (path) => judge(ctx, await ctx.get(path)))
    if (!result.ok) return fail(result.problem, result.input, result.path)
    const answers = ctx.responses.filter((r) => isLookupPath(r.path) && r.status === 200)
    const recorded = firstProblem(answers, (r) => judge(ctx, r))
    if (recorded) return fail(recorded)
    if (answers.length === 0) return skip('no lookup was answered 200')
    return pass(plural(answers.length, 'lookup answer'))
  },
}
