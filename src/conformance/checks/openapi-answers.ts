/**
 * Generic checks of answers against schema/openapi.json:
 * - documented-headers: every answer of the run carries the headers its operation documents as
 *   required for its status, and a documented header it carries matches its schema's pattern
 *   (`x-limited-for` left to rate-limit-header: one defect, one failing check);
 * - unsupported-method: a method the document does not list for a path is answered 405 with an
 *   `allow` header naming the methods it does list (RFC 9110, 15.5.6; docs/service.md);
 * - key-required: an operation whose security needs a key (or the admin token) refuses a
 *   request without one, and one with a key the server cannot know (401 or 403);
 * - response-time: no answer took longer than `--max-response-time` (skipped without it).
 */
import type { RawResponse } from '../../client/index.js'
import { type Check, fail, pass, type Problem, skip } from '../check.js'
import type { Identity } from '../context.js'
import { firstProblem, plural, problemAt, statusLine } from './lib.js'
import { documentedMethods, documentedResponse, fillPath, identityFor, type Obj, openapi, operationOf, readOnlyPath, requiredQuery, resolve, withQuery } from './openapi-lib.js'

/** Headers other checks judge. */
const OWNED_ELSEWHERE = new Set(['x-limited-for'])

function headerProblem(r: RawResponse): Problem | undefined {
  const op = operationOf(r.method, r.path)
  if (!op) return undefined
  const documented = documentedResponse(op, r.status)
  const headers = (documented?.headers ?? {}) as Record<string, Obj>
  for (const [name, raw] of Object.entries(headers)) {
    const lower = name.toLowerCase()
    if (OWNED_ELSEWHERE.has(lower)) continue
    const h = resolve(openapi().doc, raw)
    const value = r.headers[lower]
    if (value === undefined) {
      if (h.required === true) return problemAt(r, `a ${r.status} answer of ${op.method} ${op.path} has no ${name} header, which the document requires`)
      continue
    }
    const pattern = (h.schema as Obj | undefined)?.pattern
    if (typeof pattern === 'string' && !new RegExp(pattern, 'u').test(value)) return problemAt(r, `a ${r.status} answer of ${op.method} ${op.path} has ${name}: ${JSON.stringify(value)}, off the document's pattern ${pattern}`)
  }
  return undefined
}

export const documentedHeaders: Check = {
  id: 'documented-headers',
  family: 'openapi',
  description: 'Every answer of the run carries the response headers schema/openapi.json requires for its operation and status (retry-after on a 429, …), each matching its pattern',
  spec: 'schema/openapi.json (response headers)',
  async run(ctx) {
    const judged = ctx.responses.filter((r) => operationOf(r.method, r.path) !== undefined)
    const problem = firstProblem(judged, headerProblem)
    if (problem) return fail(problem)
    const withHeaders = judged.filter((r) => Object.keys((documentedResponse(operationOf(r.method, r.path)!, r.status)?.headers ?? {}) as Obj).length > 0)
    if (judged.length === 0) return skip('no answer of the run belongs to an operation of the document')
    return pass(`${plural(judged.length, 'answer')}, ${withHeaders.length} with documented headers`)
  },
}

/** The methods sent to probe a path: one the document lists for no path, and none that writes. */
const PROBE = 'PUT'

export const unsupportedMethod: Check = {
  id: 'unsupported-method',
  family: 'openapi',
  description: 'A method schema/openapi.json does not list for a path (PUT, with no body) is answered 405 with an allow header naming the methods it lists',
  spec: 'RFC 9110 15.5.6 (405 and Allow); docs/service.md: Statuses',
  needsState: 'a mock answers from the document alone, and the document cannot describe the answer to a method it does not list (Prism answers 405 without allow)',
  async run(ctx) {
    const writes = ctx.options.allowWrites === true
    const paths = [...new Set(openapi().operations.map((o) => o.path))].filter((p) => writes || readOnlyPath(p))
    let judged = 0
    for (const path of paths) {
      const methods = documentedMethods(path)
      if (methods.includes(PROBE)) continue
      const op = openapi().operations.find((o) => o.path === path)!
      const r = await ctx.request(PROBE, withQuery(fillPath(ctx, op), requiredQuery(op)), identityFor(ctx, op))
      judged++
      // A made-up id may be looked up before the method is: 404 is allowed there only.
      if (r.status === 404 && /\{(id|delivery)\}/.test(path)) continue
      if (r.status !== 405) return fail(problemAt(r, `${PROBE} ${path} (the document lists ${methods.join(', ')}) was answered ${statusLine(r)}, not 405`))
      const allow = (r.headers.allow ?? '').split(',').map((m) => m.trim().toUpperCase()).filter((m) => m !== '')
      if (allow.length === 0) return fail(problemAt(r, `the 405 to ${PROBE} ${path} has no allow header (RFC 9110: a 405 must name the methods the path takes)`))
      const missing = methods.filter((m) => !allow.includes(m))
      if (missing.length > 0 || allow.includes(PROBE)) {
        return fail(problemAt(r, `the 405 to ${PROBE} ${path} has allow: ${r.headers.allow}; the document lists ${methods.join(', ')}`))
      }
    }
    return pass(`${plural(judged, 'path')}${writes ? '' : ' that only read (the others need --allow-writes)'}`)
  },
}

export const keyRequired: Check = {
  id: 'key-required',
  family: 'keys',
  description: 'An operation whose security in schema/openapi.json needs a key (or the admin token) refuses a request without one, and one with a key the server cannot know (401 or 403)',
  spec: 'schema/openapi.json (security); docs/hooks.md; docs/service.md: Keys and plans',
  async run(ctx) {
    const writes = ctx.options.allowWrites === true
    let judged = 0
    for (const op of openapi().operations) {
      if (op.auth === 'none') continue
      // Without --allow-writes only GETs; with it, the writes whose request writes nothing even if accepted.
      const harmless = op.method === 'GET' || (writes && (op.method === 'DELETE' || (op.path === '/admin/events' && op.method === 'POST')))
      if (!harmless || op.path.includes('{id}/')) continue
      const path = withQuery(fillPath(ctx, op), op.path === '/admin/events' ? { tag: 'l9kit-conform:never-used' } : requiredQuery(op))
      const tries: [Identity, string][] = [['anonymous', 'without a key']]
      if (!ctx.options.stateless) tries.push(['wrong', 'with a key the server cannot know'])
      for (const [identity, how] of tries) {
        const headers: Record<string, string> = identity === 'wrong' && op.auth === 'admin' ? { authorization: `Bearer ${ctx.wrongKey}` } : {}
        const send = op.path === '/admin/events' ? { text: '', headers } : {}
        const r = await ctx.request(op.method as never, path, op.auth === 'admin' ? 'anonymous' : identity, send)
        judged++
        if (r.status !== 401 && r.status !== 403) return fail(problemAt(r, `${op.method} ${op.path} ${how} was answered ${statusLine(r)}, not 401 or 403`))
      }
    }
    if (judged === 0) return skip('no operation of the document needs a key')
    return pass(`${plural(judged, 'request')}${ctx.options.stateless ? ' without a key (a stateless server cannot tell a wrong key)' : ''}`)
  },
}

export const responseTime: Check = {
  id: 'response-time',
  family: 'http',
  description: 'No answer of the run took longer than --max-response-time milliseconds (sending to the end of the body; a streamed export to its headers)',
  spec: 'docs/conformance.md: --max-response-time',
  async run(ctx) {
    const max = ctx.options.maxResponseTimeMs
    if (max === undefined) return skip('no --max-response-time given')
    const slow = ctx.responses.find((r) => r.elapsedMs > max)
    if (slow) return fail(problemAt(slow, `${slow.method} ${slow.path} took ${Math.round(slow.elapsedMs)} ms (more than ${max} ms)`))
    return pass(`${plural(ctx.responses.length, 'answer')} within ${max} ms`)
  },
}
