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
import { halves, tellingTerm } from './telling.js'

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

/** A query split in two by a telling term: `base`, `base +term`, `base -term` (telling.ts). */
export interface BulkSplit {
  route: BulkRoute
  reads: [BulkRead, BulkRead, BulkRead]
}

export type BulkAnswer = { ok: true; reads: BulkRead[]; splits: BulkSplit[] } | { ok: false; skip: string }

/** The events of an export's lines: each line of /bulk/service, each aggregation's events of /bulk/search. */
export function eventsOf(read: BulkRead): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = []
  for (const line of read.lines) {
    if (typeof line !== 'object' || line === null) continue
    if (read.route === 'service') out.push(line as Record<string, unknown>)
    else for (const e of ((line as { events?: unknown }).events as unknown[] | undefined) ?? []) if (typeof e === 'object' && e !== null) out.push(e as Record<string, unknown>)
  }
  return out
}

/** Whether an export was read whole (a 200 to its end, or a 204). */
export const whole = (read: BulkRead) => !read.truncated && read.error === undefined && (read.response.status === 200 || read.response.status === 204)

/** Reads one export again (a split that does not add up is read once more: the server may have changed meanwhile). */
export async function reread(ctx: SuiteContext, read: BulkRead): Promise<BulkRead> {
  const got = await ctx.lines(bulkPath(read.route, read.q), ctx.options.proKey !== undefined ? 'pro' : 'key', MAX_LINES)
  return { route: read.route, q: read.q, ...got }
}

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
  // Queries that can tell: the first export read whole with a term that splits its events.
  const splits: BulkSplit[] = []
  for (const route of ['search', 'service'] as const) {
    for (const base of reads.filter((r) => r.route === route && whole(r) && (r.q === '*' || r.q.startsWith('+ip:')))) {
      const term = tellingTerm(eventsOf(base), scopeOf(route))
      if (term === undefined) continue
      const [plus, minus] = halves(base.q, term)
      await read(route, plus)
      await read(route, minus)
      splits.push({ route, reads: [base, reads[reads.length - 2]!, reads[reads.length - 1]!] })
      break
    }
  }
  return { ok: true, reads, splits }
}
