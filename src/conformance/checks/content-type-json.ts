/** Every answer is JSON: an application/json content type and a body that parses (the bulk export's JSON Lines aside). */
import fc from 'fast-check'
import type { RawResponse } from '../../client/index.js'
import { type Check, fail, pass, type Problem } from '../check.js'
import { anySegment, rawPath, type Route, ROUTES } from '../gen/paths.js'
import { firstProblem, plural, problemAt } from './lib.js'

/** `application/json` or any `+json` type, parameters (charset) allowed. */
export const isJsonType = (value: string | undefined) => {
  const type = (value ?? '').split(';', 1)[0]!.trim().toLowerCase()
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'))
}

function judge(r: RawResponse): Problem | undefined {
  // The specification gives a 429 no body; an empty one is allowed there only.
  if (r.status === 429 && r.body === '') return undefined
  // The bulk export's answers are JSON Lines (or a 204 without a body): the bulk checks judge them.
  if (r.path.startsWith('/bulk/') && (r.status === 200 || r.status === 204)) return undefined
  if (!isJsonType(r.headers['content-type'])) {
    return problemAt(r, `a ${r.status} answer has content-type ${r.headers['content-type'] ?? '(none)'}, not application/json`)
  }
  try {
    JSON.parse(r.body)
  } catch {
    return problemAt(r, `a ${r.status} answer says application/json but its body is not JSON`)
  }
  return undefined
}

export const contentTypeJson: Check = {
  id: 'content-type-json',
  description: 'Every answer, errors included, has content-type application/json and a JSON body',
  spec: 'Endpoints (all three operations return JSON); docs/service.md',
  async run(ctx) {
    const target = fc.tuple(fc.constantFrom(...ROUTES), anySegment())
    const result = await ctx.property('content-type-json', target, async ([route, raw]) => judge(await ctx.get(rawPath(route, raw))), {
      examples: [['/host/', 'not-an-ip'], ['/domain/', '-bad-.com'], ['/api/subdomains/', 'example..com']] as [Route, string][],
    })
    if (!result.ok) return fail(result.problem, result.input, result.path)
    const recorded = firstProblem(ctx.responses, judge)
    if (recorded) return fail(recorded)
    return pass(plural(ctx.responses.length, 'answer'))
  },
}
