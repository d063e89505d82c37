/** 200 answers of the subdomains lookup are arrays of subdomain entries. */
import fc from 'fast-check'
import type { RawResponse } from '../../client/index.js'
import { type Check, fail, pass, type Problem, skip } from '../check.js'
import type { SuiteContext } from '../context.js'
import { unknownDomain } from '../gen/paths.js'
import { knownAnswers } from './known.js'
import { firstProblem, isSubdomainsPath, plural, problemAt, subdomainsPath, subdomainsShapeErrors } from './lib.js'

function judge(ctx: SuiteContext, r: RawResponse): Problem | undefined {
  if (r.status !== 200) return undefined
  const body = ctx.json(r)
  if (body === undefined) return undefined
  const errors = subdomainsShapeErrors(body)
  if (errors.length === 0) return undefined
  const first = errors[0]!
  const more = errors.length > 1 ? ` (and ${plural(errors.length - 1, 'more problem')})` : ''
  return problemAt(r, `the body is not a list of subdomain entries: ${first.pointer || '(body)'}: ${first.message}${more}`)
}

export const subdomainsShape: Check = {
  id: 'subdomains-shape',
  description: '200 answers of GET /api/subdomains/:domain validate as arrays of {subdomain, distinct_ips, last_seen}',
  spec: 'Resources: Subdomain entry; Endpoints: Subdomains',
  async run(ctx) {
    await knownAnswers(ctx)
    const known = ctx.known.domains.map(subdomainsPath)
    const generated = unknownDomain().map(subdomainsPath)
    const target = known.length > 0 ? fc.oneof(fc.constantFrom(...known), generated) : generated
    const result = await ctx.property('subdomains-shape', target, async (path) => judge(ctx, await ctx.get(path)))
    if (!result.ok) return fail(result.problem, result.input, result.path)
    const answers = ctx.responses.filter((r) => isSubdomainsPath(r.path) && r.status === 200)
    const recorded = firstProblem(answers, (r) => judge(ctx, r))
    if (recorded) return fail(recorded)
    if (answers.length === 0) return skip('no subdomains lookup was answered 200')
    return pass(plural(answers.length, 'subdomain answer'))
  },
}
