/**
 * Mutants of search and the bulk export, judged by read-only runs on the shared base: the
 * store's results, paging and order, the query engine's reading of an operator, the export's
 * lines and counts.
 */
import { parseQuery, type Query } from '../../../src/query/index.js'
import type { Store } from '../../../src/service/index.js'
import type { SearchPage } from '../../../src/service/store/search.js'
import { type Answer, type Asked, type Mutant, proxy, service, wrapStore } from './harness.js'
import { BULK_CHECKS, SEARCH_CHECKS } from './families.js'
import { sharedStore } from './shared.js'

type Obj = Record<string, unknown>

const storeMutant = (m: Omit<Mutant, 'start'>, methods: Parameters<typeof wrapStore<Store>>[1]): Mutant => ({
  ...m,
  start: async () => service({ store: wrapStore<Store>(await sharedStore(), methods) }),
})
const proxyMutant = (m: Omit<Mutant, 'start'>, rules: Parameters<typeof proxy>[1]): Mutant => ({ ...m, start: (bases) => proxy(bases.read, rules) })

/** Rewrites the `q` parameter of requests to paths starting with `prefix`. */
const rewriteQ = (prefix: string, edit: (q: string) => string) => (asked: Asked): Asked => {
  if (!asked.url.startsWith(prefix)) return asked
  const url = new URL(asked.url, 'http://x')
  const q = url.searchParams.get('q')
  if (q === null) return asked
  url.searchParams.set('q', edit(q).trim() || '*')
  return { ...asked, url: url.pathname + url.search }
}

/** `-` terms left out: `-word`, `-field:value`, `-"phrase"`, `-( … )` (one level). */
const withoutMinus = (q: string) => q.replace(/(^|\s)-(\([^()]*\)|"[^"]*"|[^\s()]+)/g, '$1')

/** Rewrites the lines of a 200 JSON Lines answer to paths matching `path`. */
const editLines = (path: RegExp, edit: (lines: Obj[], asked: Asked) => Obj[]) => (asked: Asked, a: Answer): Answer => {
  if (!path.test(asked.url) || a.status !== 200) return a
  const lines = a.body.toString('utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Obj)
  return { ...a, body: Buffer.from(edit(lines, asked).map((l) => `${JSON.stringify(l)}\n`).join('')) }
}

/** An event no store holds: the first line's, on another address with another fingerprint. */
const stranger = (e: Obj): Obj => ({ ...e, ip: '198.18.9.9', host: 'stranger.example.net', event_fingerprint: 'f'.repeat(64), time: '2001-01-01T00:00:00Z' })

async function* reversed<T>(items: AsyncIterable<T>): AsyncIterable<T> {
  const all: T[] = []
  for await (const item of items) all.push(item)
  yield* all.reverse()
}

async function* allButFirst<T>(items: AsyncIterable<T>): AsyncIterable<T> {
  let first = true
  for await (const item of items) {
    if (!first) yield item
    first = false
  }
}

export const QUERY_MUTANTS: Mutant[] = [
  storeMutant({ id: 'search-pages-overlap', layer: 'paging', breaks: 'each page after the first starts one event early', killedBy: ['search-pages-disjoint'], checks: SEARCH_CHECKS }, {
    search: (search) => (query: Query, page: SearchPage) => search(query, page.offset > 0 ? { ...page, offset: page.offset - 1 } : page),
  }),
  storeMutant({ id: 'search-page-loses-last', layer: 'paging', breaks: 'each page leaves out its last event', killedBy: ['search-count', 'search-finds-known', 'search-partition'], checks: SEARCH_CHECKS }, {
    search: (search) => async (query: Query, page: SearchPage) => (await search(query, page)).slice(0, -1),
  }),
  storeMutant({ id: 'search-page-reversed', layer: 'ordering', breaks: 'each page comes oldest first', killedBy: ['search-order'], checks: SEARCH_CHECKS }, {
    search: (search) => async (query: Query, page: SearchPage) => [...(await search(query, page))].reverse(),
  }),
  storeMutant({ id: 'search-extra-result', layer: 'store', breaks: 'page 0 of any query also holds the scope’s newest event', killedBy: ['search-count', 'search-excludes', 'search-partition', 'search-results-match'], checks: SEARCH_CHECKS }, {
    search: (search) => async (query: Query, page: SearchPage) => {
      const found = await search(query, page)
      if (page.offset > 0) return found
      const newest = await search(parseQuery('*', { scope: query.scope === 'leak' ? 'leak' : 'service' }), { offset: 0, limit: 1 })
      return [...found, ...newest.filter((n) => !found.some((f) => Buffer.compare(Buffer.from(f), Buffer.from(n)) === 0))]
    },
  }),
  proxyMutant({ id: 'search-ignores-minus', layer: 'query engine', breaks: 'search reads a - term as nothing', killedBy: ['search-excludes', 'search-partition', 'search-results-match'], checks: SEARCH_CHECKS }, { request: rewriteQ('/search', withoutMinus) }),
  proxyMutant({ id: 'search-plus-as-optional', layer: 'query engine', breaks: 'search reads + (required) as optional', killedBy: ['search-partition', 'search-results-match'], checks: SEARCH_CHECKS }, {
    request: rewriteQ('/search', (q) => q.replace(/(^|[\s(])\+/g, '$1')),
  }),
  proxyMutant({ id: 'search-quote-500', layer: 'HTTP status', breaks: 'a query with an unbalanced quote is a 500', killedBy: ['search-hostile'], checks: SEARCH_CHECKS }, {
    answer: (asked, a) => (asked.url.startsWith('/search') && a.status === 400 ? { ...a, status: 500, statusMessage: 'Internal Server Error' } : a),
  }),
  // The bulk export.
  proxyMutant({ id: 'bulk-extra-line-in-everything', layer: 'bulk lines', breaks: '/bulk/service?q=* has one line that is no stored event (every line still matches *)', killedBy: ['bulk-partition'], checks: BULK_CHECKS }, {
    answer: editLines(/^\/bulk\/service\?q=(\*|%2A)$/, (lines) => (lines.length > 0 ? [...lines, stranger(lines[0]!)] : lines)),
  }),
  proxyMutant({ id: 'bulk-extra-line-everywhere', layer: 'bulk lines', breaks: 'every /bulk/service answer has one line the query does not match', killedBy: ['bulk-matches', 'bulk-partition'], checks: BULK_CHECKS }, {
    answer: editLines(/^\/bulk\/service\?/, (lines) => (lines.length > 0 ? [...lines, stranger(lines[0]!)] : lines)),
  }),
  storeMutant({ id: 'bulk-missing-line', layer: 'bulk lines', breaks: 'each /bulk/service export leaves out its first event', killedBy: ['bulk-partition'], checks: BULK_CHECKS }, {
    searchAll: (searchAll) => (query: Query, options?: object) => allButFirst(searchAll(query, options)),
  }),
  storeMutant({ id: 'bulk-service-reversed', layer: 'ordering', breaks: '/bulk/service comes oldest first', killedBy: ['bulk-order'], checks: BULK_CHECKS }, {
    searchAll: (searchAll) => (query: Query, options?: object) => reversed(searchAll(query, options)),
  }),
  proxyMutant({ id: 'bulk-ignores-minus', layer: 'query engine', breaks: 'the export reads a - term as nothing', killedBy: ['bulk-matches', 'bulk-partition'], checks: BULK_CHECKS }, { request: rewriteQ('/bulk/', withoutMinus) }),
  proxyMutant({ id: 'bulk-leak-count-plus-one', layer: 'bulk counts', breaks: 'leak_event_count counts one more', killedBy: ['bulk-counts'], checks: BULK_CHECKS }, {
    answer: editLines(/^\/bulk\/search\?/, (lines) => lines.map((l) => ({ ...l, leak_event_count: Number(l.leak_event_count) + 1 }))),
  }),
  proxyMutant({ id: 'bulk-resource-twice', layer: 'bulk counts', breaks: 'one resource comes on two lines', killedBy: ['bulk-counts'], checks: BULK_CHECKS }, {
    answer: editLines(/^\/bulk\/search\?q=(\*|%2A)$/, (lines) => (lines.length > 0 ? [...lines, lines[0]!] : lines)),
  }),
  proxyMutant({ id: 'bulk-text-plain', layer: 'HTTP headers', breaks: 'the export is text/plain', killedBy: ['bulk-lines'], checks: BULK_CHECKS }, {
    answer: (asked, a) => (asked.url.startsWith('/bulk/') && a.status === 200 ? { ...a, headers: { ...a.headers, 'content-type': 'text/plain' } } : a),
  }),
]
