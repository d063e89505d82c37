/**
 * Pages of the hook API's lists (GET /api/resources, GET /api/hooks): `?limit=N` (1 to 1000,
 * default 100) and `?cursor=C` (from the previous page). The body stays a JSON array, oldest
 * first; when more follow, a `link` header names the next page (`<…>; rel="next"`, as RFC 8288
 * and GitHub's API write it), so a client that reads only the body still gets the first page.
 */
import type { ServerResponse } from 'node:http'
import type { Page, PageRequest } from '../store/hook-types.js'
import { sendJson } from './reply.js'

export const PAGE_DEFAULT = 100
export const PAGE_MAX = 1_000

/** The page a request asks for, or why its parameters are wrong. */
export function pageRequest(url: string): PageRequest | string {
  const q = url.indexOf('?')
  const query = new URLSearchParams(q === -1 ? '' : url.slice(q + 1))
  const limitText = query.get('limit')
  const cursor = query.get('cursor')
  let limit = PAGE_DEFAULT
  if (limitText !== null) {
    limit = /^[0-9]{1,4}$/.test(limitText) ? Number(limitText) : 0
    if (limit < 1 || limit > PAGE_MAX) return `The limit parameter must be an integer from 1 to ${PAGE_MAX} (got ${JSON.stringify(limitText.slice(0, 20))}).`
  }
  // Cursors are what an earlier page's link gave: a sequence number.
  if (cursor !== null && !/^[0-9]{1,18}$/.test(cursor)) return `The cursor parameter ${JSON.stringify(cursor.slice(0, 40))} is not one this service gave; start without it.`
  return { cursor, limit }
}

/** Sends a page: its items as a JSON array, and a `link` to the next page when there is one. */
export function sendPage<T>(res: ServerResponse, path: string, request: PageRequest, page: Page<T>, body: (item: T) => unknown): void {
  const headers: Record<string, string> = {}
  if (page.next !== null) headers.link = `<${path}?limit=${request.limit}&cursor=${page.next}>; rel="next"`
  sendJson(res, 200, JSON.stringify(page.items.map(body)), headers)
}
