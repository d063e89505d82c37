/** No path, however odd, makes the server fail with a 5xx. */
import fc from 'fast-check'
import { type Check, fail, pass } from '../check.js'
import { anySegment, HOSTILE_SEGMENTS, LONGEST_DOMAIN, rawPath, ROUTES } from '../gen/paths.js'
import { firstProblem, plural, problemAt, statusLine } from './lib.js'

export const no5xx: Check = {
  id: 'no-5xx',
  description: 'No generated path (valid, malformed, Unicode, dot segments, %00, very long) is answered with a 5xx',
  spec: 'Errors; Endpoints (path parameters)',
  async run(ctx) {
    const target = fc.tuple(fc.constantFrom(...ROUTES), anySegment())
    const examples: [(typeof ROUTES)[number], string][] = [
      ['/domain/', LONGEST_DOMAIN],
      ['/api/subdomains/', LONGEST_DOMAIN],
      ['/host/', 'a'.repeat(2000)],
      ['/domain/', '%00'],
      ['/host/', HOSTILE_SEGMENTS[HOSTILE_SEGMENTS.length - 1]!],
    ]
    const result = await ctx.property('no-5xx', target, async ([route, raw]) => {
      const r = await ctx.get(rawPath(route, raw))
      return r.status >= 500 ? problemAt(r, `answered ${statusLine(r)}`) : undefined
    }, { examples })
    if (!result.ok) return fail(result.problem, result.input, result.path)
    const recorded = firstProblem(ctx.responses, (r) => (r.status >= 500 ? problemAt(r, `answered ${statusLine(r)}`) : undefined))
    if (recorded) return fail(recorded)
    return pass(plural(ctx.responses.length, 'answer'))
  },
}
