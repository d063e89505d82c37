/**
 * What the bulk checks share: one set of exports read per run (ctx.memo), each bounded to
 * MAX_LINES lines (then the connection is closed: a real service's `*` export is huge). The
 * queries: everything, each of a few known addresses, a listed plugin and everything but it (a
 * server that ignores `-` terms shows there). Sent with the pro key (else the user's key): the
 * bulk export is for pro plans.
 */
import type { ClientError, RawResponse } from '../../client/index.js'
import type { Scope } from '../../query/index.js'
import type { SuiteContext } from '../context.js'
import { pluginsAnswer } from './plugins-lib.js'

/** Why a stateless server (a mock of fixed examples) is not asked: the bulk checks' needsState. */
export const BULK_NEEDS_STATE = 'a bulk export streams JSON Lines of what the server holds; a mock of fixed examples cannot write them (Prism has no serializer for application/x-ndjson)'

/** Lines read per export at most. */
export const MAX_LINES = 200

export type BulkRoute = 'search' | 'service'
export const bulkPath = (route: BulkRoute, q: string) => `/bulk/${route}?q=${encodeURIComponent(q)}`
/** The query scope of a route: /bulk/search exports leaks, /bulk/service services. */
export const scopeOf = (route: BulkRoute): Scope => (route === 'search' ? 'leak' : 'service')

export interface BulkRead {
  route: BulkRoute
  q: string
  response: RawResponse
  lines: unknown[]
  /** More lines followed than were read. */
  truncated: boolean
  error?: ClientError
}

export type BulkAnswer = { ok: true; reads: BulkRead[] } | { ok: false; skip: string }

/** The run's bulk exports (one set per run, shared by the checks). */
export function bulkAnswer(ctx: SuiteContext): Promise<BulkAnswer> {
  return ctx.memo('bulk', () => readAll(ctx))
}

async function readAll(ctx: SuiteContext): Promise<BulkAnswer> {
  const identity = ctx.options.proKey !== undefined ? 'pro' : 'key'
  const reads: BulkRead[] = []
  const read = async (route: BulkRoute, q: string) => {
    const got = await ctx.lines(bulkPath(route, q), identity, MAX_LINES)
    reads.push({ route, q, ...got })
    return got.response
  }
  for (const route of ['search', 'service'] as const) {
    const first = await read(route, '*')
    const status = first.status
    if (status === 404 || status === 405 || status === 501) return { ok: false, skip: `the server has no GET /bulk/${route} (answered ${status})` }
    if (status === 401 || status === 403) return { ok: false, skip: `GET /bulk/${route} was refused (${status}): the bulk export needs a key of a plan that has it (--pro-key)` }
  }
  const plugins = await pluginsAnswer(ctx)
  const plugin = plugins.ok ? plugins.plugins[0]?.name : undefined
  for (const route of ['search', 'service'] as const) {
    for (const ip of ctx.known.ips.slice(0, 2)) await read(route, `+ip:${ip}`)
    if (plugin !== undefined && /^[\w.-]+$/.test(plugin)) {
      await read(route, `+plugin:${plugin}`)
      await read(route, `-plugin:${plugin}`)
    }
  }
  return { ok: true, reads }
}
