/**
 * Negative data, from the OpenAPI document: for every operation the run may send (GET ones;
 * the others with --allow-writes), each constraint of each path and query parameter violated
 * in turn (a value outside its enum, off its pattern, not an integer, under its minimum, over
 * its maximum or maxLength; a required query parameter left out) must be answered 4xx: never
 * 2xx (the server took what its document says it refuses) and never 5xx.
 */
import { type Check, fail, pass } from '../check.js'
import { plural, problemAt, statusLine } from './lib.js'
import { fillPath, identityFor, type Obj, openapi, type Operation, type Parameter, requiredQuery, withQuery } from './openapi-lib.js'

/** One parameter's value that breaks one of its constraints, with what it breaks. */
export interface Violation {
  parameter: string
  breaks: string
  /** The value to send (undefined: leave the parameter out). */
  value: string | undefined
}

const PATTERN_CANDIDATES = ['!', 'a b', 'a/b', '0', 'x', '-1', '\u00e9']

/** The violations of one parameter's schema, one per constraint. */
export function violations(p: Parameter): Violation[] {
  const s: Obj = p.schema ?? {}
  const out: Violation[] = []
  const add = (breaks: string, value: string | undefined) => out.push({ parameter: p.name, breaks, value })
  if (p.in === 'query' && p.required) add('required', undefined)
  if (Array.isArray(s.enum)) add(`enum ${JSON.stringify(s.enum)}`, 'l9kit-none-of-these')
  if (typeof s.pattern === 'string') {
    const pattern = new RegExp(s.pattern, 'u')
    const value = PATTERN_CANDIDATES.find((c) => !pattern.test(c))
    if (value !== undefined) add(`pattern ${s.pattern}`, value)
  }
  if (s.type === 'integer') {
    add('type integer', 'l9kit')
    if (typeof s.minimum === 'number') add(`minimum ${s.minimum}`, String(s.minimum - 1))
    if (typeof s.maximum === 'number') add(`maximum ${s.maximum}`, String(s.maximum + 1))
  }
  if (typeof s.maxLength === 'number' && s.maxLength <= 10_000) add(`maxLength ${s.maxLength}`, 'a'.repeat(s.maxLength + 1))
  return out
}

/** The operations a run may send: GET ones, the others too with --allow-writes. */
export const sendable = (writes: boolean) => openapi().operations.filter((o) => o.method === 'GET' || writes)

/** The request of one violation: the operation's path and required query filled, one value swapped. */
export function violating(ctx: Parameters<typeof fillPath>[0], op: Operation, v: Violation): string {
  const p = op.parameters.find((x) => x.name === v.parameter)!
  if (p.in === 'path') return withQuery(fillPath(ctx, op, { [v.parameter]: encodeURIComponent(v.value ?? '') }), requiredQuery(op))
  const query = requiredQuery(op)
  if (v.value === undefined) delete query[v.parameter]
  else query[v.parameter] = v.value
  return withQuery(fillPath(ctx, op), query)
}

export const paramConstraints: Check = {
  id: 'param-constraints',
  family: 'openapi',
  description: 'Each path and query parameter constraint of schema/openapi.json (enum, pattern, integer, minimum, maximum, maxLength, required) violated in turn is answered 4xx: never 2xx, never 5xx',
  spec: 'schema/openapi.json (parameters); docs/service.md (400 for a client’s mistake)',
  async run(ctx) {
    const writes = ctx.options.allowWrites === true
    let sent = 0
    for (const op of sendable(writes)) {
      if (op.path.startsWith('/ws/')) continue // a WebSocket's parameters: the live checks
      if (op.auth === 'admin' && ctx.options.adminToken === undefined) continue
      for (const p of op.parameters.filter((x) => x.in === 'path' || x.in === 'query')) {
        for (const v of violations(p)) {
          const path = violating(ctx, op, v)
          const r = await ctx.request(op.method as never, path, identityFor(ctx, op))
          sent++
          if (r.status < 400 || r.status >= 500) {
            return fail(problemAt(r, `${op.method} ${op.path} with ${v.parameter} breaking its ${v.breaks} (${v.value === undefined ? 'left out' : JSON.stringify(v.value.length > 40 ? `${v.value.slice(0, 40)}…` : v.value)}) was answered ${statusLine(r)}, not 4xx`), `${v.parameter}: ${v.breaks}`)
          }
        }
      }
    }
    return pass(`${plural(sent, 'request')} breaking one constraint each`)
  },
}
