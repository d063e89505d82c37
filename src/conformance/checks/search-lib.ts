/**
 * What the search checks share (GET /search, docs/specification.md): whether the server has the
 * route, reading a page, the events its first pages hold (the sample queries are built from),
 * and the engine (src/query) as the oracle of what a result must satisfy.
 */
import type { RawResponse } from '../../client/index.js'
import { searchPath, type SearchScope } from '../../client/index.js'
import { matches, parseQuery, type Query } from '../../query/index.js'
import type { Event } from '../../schema/index.js'
import { validateDocument } from '../../validate/index.js'
import type { SuiteContext } from '../context.js'

export type { SearchScope }
export const SCOPES: readonly SearchScope[] = ['service', 'leak']
/** Pages read when looking for an event among a query's results. */
export const PAGES_READ = 3

export type Obj = Record<string, unknown>

/** A page as read: the events (parsed JSON objects) or the answer's status when it is not a JSON array. */
export type PageAnswer = { ok: true; response: RawResponse; events: Obj[] } | { ok: false; response: RawResponse; why: string }

/** GET /search for one page, as the user's key; shared between checks through the context's cache. */
export async function searchPage(ctx: SuiteContext, scope: SearchScope, q: string, page: number): Promise<PageAnswer> {
  const response = await ctx.get(searchPath(q, scope, page))
  if (response.status === 204) return { ok: true, response, events: [] }
  if (response.status !== 200) return { ok: false, response, why: `answered ${response.status}, not 200` }
  if (response.body.trim() === '') return { ok: true, response, events: [] }
  const body = ctx.json(response)
  if (!Array.isArray(body)) return { ok: false, response, why: 'the 200 body is not a JSON array' }
  if (!body.every((e) => typeof e === 'object' && e !== null && !Array.isArray(e))) return { ok: false, response, why: 'an item of the array is not an object' }
  return { ok: true, response, events: body as Obj[] }
}

/** Why the search checks cannot run (no route, or the key may not search), or null when they can. */
export function searchAbsent(ctx: SuiteContext): Promise<string | null> {
  return ctx.memo('search-route', async () => {
    const { response } = await searchPage(ctx, 'service', '*', 0)
    if (response.status === 404 || response.status === 405 || response.status === 501) return `the server has no GET /search (answered ${response.status})`
    if (response.status === 401 || response.status === 403) return `GET /search was refused (${response.status}): give a key the server lets search (--api-key)`
    return null
  })
}

/** The strict-valid events of page 0 of `*` in both scopes, newest first (what queries are built from). */
export function searchSample(ctx: SuiteContext): Promise<{ scope: SearchScope; event: Event }[]> {
  return ctx.memo('search-sample', async () => {
    const out: { scope: SearchScope; event: Event }[] = []
    for (const scope of SCOPES) {
      const page = await searchPage(ctx, scope, '*', 0)
      if (!page.ok) continue
      for (const e of page.events) if (e.event_type === scope && validateDocument('event', e).ok) out.push({ scope, event: e as unknown as Event })
    }
    return out
  })
}

/** The query in `scope`, or null when the engine refuses it (it then says nothing about results). */
export function oracle(q: string, scope: SearchScope): Query | null {
  try {
    return parseQuery(q, { scope })
  } catch {
    return null
  }
}

/** Whether the engine says `event` satisfies `query` (the server's first and last seen unknown: its own time). */
export const satisfies = (query: Query, event: Obj) => matches(query, event)

/** One event's identity among a server's answers: its JSON text. */
export const eventKey = (event: Obj) => JSON.stringify(event)

/** Reads pages 0 … PAGES_READ-1 of a query until one is empty; stops at the first answer that is not a page. */
export async function firstPages(ctx: SuiteContext, scope: SearchScope, q: string, pages = PAGES_READ): Promise<{ pages: PageAnswer[]; ended: boolean }> {
  const out: PageAnswer[] = []
  for (let page = 0; page < pages; page++) {
    const answer = await searchPage(ctx, scope, q, page)
    out.push(answer)
    if (!answer.ok) return { pages: out, ended: false }
    if (answer.events.length === 0) return { pages: out, ended: true }
  }
  return { pages: out, ended: false }
}
