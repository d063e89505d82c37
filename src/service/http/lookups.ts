/** The three lookups: GET /host/:ip, GET /domain/:domain, GET /api/subdomains/:domain. */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { SubdomainEntry } from '../../schema/index.js'
import { lookupBody, subdomainsBody } from '../store/index.js'
import { identify, withinLimit } from './caller.js'
import type { ServiceContext } from './context.js'
import { failed, lookupHeaders, READ_METHODS, sendError, sendJson, sendLookupJson, sendMethodNotAllowed, shown, VARY_ACCEPT } from './reply.js'
import { badEncoding, decodeParam, notDomain, notIp, pathOf, type RouteName } from './route.js'
import { weightOf } from './negotiate.js'
import { canonicalIp } from '../names/ip.js'

/** Answers a lookup route; errors (400, 401, 404, 406, 429) are JSON like everything else. */
export function handleLookup(ctx: ServiceContext, req: IncomingMessage, res: ServerResponse, route: RouteName, raw: string): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendMethodNotAllowed(res, req.method, pathOf(req.url), READ_METHODS, route === 'subdomains' ? undefined : VARY_ACCEPT)
  // Browsers get a page at /host and /domain (the web view): every answer there, errors
  // included, depends on accept, and caches must keep the representations apart. The header
  // goes with each answer's own (no setHeader first: writeHead then takes the fast path).
  const vary = route !== 'subdomains'
  const extra = vary ? VARY_ACCEPT : undefined
  const accept = req.headers.accept
  if (accept !== undefined && !acceptsJson(accept)) {
    return sendError(res, 406, `The answer is application/json, which the accept header (${shown(accept)}) does not allow.`, extra)
  }
  const caller = identify(ctx, req, res, extra)
  if (caller === undefined || !withinLimit(ctx, caller, res, extra)) return
  if (vary) {
    // A kept answer (answer-cache.ts) is keyed by the raw parameter: only good ones are kept.
    const version = ctx.store.version
    const kept = version === undefined ? undefined : ctx.answers[route as 'host' | 'domain'].get(raw, version)
    if (kept !== undefined) return sendLookupJson(res, kept.body, kept.headers)
  }
  const param = decodeParam(raw)
  if (param === null) return sendError(res, 400, badEncoding(raw), extra)
  if (param === '') return sendError(res, 400, `The path needs ${route === 'host' ? 'an IP address' : 'a domain name'} after the last '/'.`, extra)

  if (route === 'host' || route === 'domain') return answerLookup(ctx, res, route, raw, param)
  const limit = caller.plan.subdomains ?? undefined
  settle(res, ctx.store.subdomains(param, limit), undefined, (entries: SubdomainEntry[] | null) =>
    entries === null ? sendError(res, 400, notDomain(param)) : sendJson(res, 200, subdomainsBody(entries)),
  )
}

/** A /host or /domain answer (both vary by accept), kept for the next time if the store allows. */
function answerLookup(ctx: ServiceContext, res: ServerResponse, route: 'host' | 'domain', raw: string, param: string): void {
  const version = ctx.store.version
  const result = route === 'host' ? ctx.store.host(param) : ctx.store.domain(param)
  settle(res, result, VARY_ACCEPT, (lookup) => {
    if (lookup === null) return sendError(res, 400, route === 'host' ? notIp(param) : notDomain(param), VARY_ACCEPT)
    const body = lookupBody(lookup)
    if (version !== undefined) ctx.answers[route].set(raw, version, body, route === 'host' ? (canonicalIp(param) ?? undefined) : undefined)
    sendLookupJson(res, body, lookupHeaders(body.length))
  })
}

/** Runs `then` now for a plain value (the in-memory store), or when a promise settles; a failure is a 500 (with `headers`). */
function settle<T>(res: ServerResponse, value: T | Promise<T>, headers: Readonly<Record<string, string>> | undefined, then: (v: T) => void): void {
  if (!(value instanceof Promise)) return then(value)
  value.then(then, (error: unknown) => {
    if (!res.headersSent) sendError(res, 500, failed('The store failed', error), headers)
  })
}

/**
 * Whether an accept header allows application/json: its most specific matching range
 * (`application/json`, `application/*`, `*\/*`) gives it a weight above 0 (so
 * `application/json;q=0` refuses it), or, as before, an empty range or a `+json` type
 * without q=0 names it.
 */
export function acceptsJson(accept: string): boolean {
  if (accept === 'application/json' || accept === '*/*') return true
  if (weightOf(accept, 'application', 'json') > 0) return true
  return accept.split(',').some((part) => {
    const [range = '', ...params] = part.split(';')
    const type = range.trim().toLowerCase()
    return (type === '' || type.endsWith('+json')) && !params.some((p) => /^\s*q\s*=\s*0(?:\.0{0,3})?\s*$/i.test(p))
  })
}
