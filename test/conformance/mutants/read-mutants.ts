/**
 * Mutants judged by read-only runs on the shared base: the lookups' results and shapes, HTTP
 * answers, the OpenAPI document's parameters and methods, keys, plugins.
 */
import { DEMO_SECRETS, type Lookup, type Store } from '../../../src/service/index.js'
import { editJson, type Mutant, proxy, service, wrapStore } from './harness.js'
import { HTTP_CHECKS, KEY_CHECKS, LOOKUP_CHECKS, OPENAPI_CHECKS, PLUGIN_CHECKS } from './families.js'
import { sharedStore } from './shared.js'

type Obj = Record<string, unknown>
const parse = (b: Uint8Array) => JSON.parse(Buffer.from(b).toString('utf8')) as Obj
const KNOWN_KEYS = new Set<string>(Object.values(DEMO_SECRETS))

/** A mutant of the shared store: `methods` wrap some of its methods. */
const storeMutant = (m: Omit<Mutant, 'start'>, methods: Parameters<typeof wrapStore<Store>>[1]): Mutant => ({
  ...m,
  start: async () => service({ store: wrapStore<Store>(await sharedStore(), methods) }),
})

/** A mutant that is a proxy in front of the shared base. */
const proxyMutant = (m: Omit<Mutant, 'start'>, rules: Parameters<typeof proxy>[1]): Mutant => ({ ...m, start: (bases) => proxy(bases.read, rules) })

const text = (body: Buffer, edit: (s: string) => string) => Buffer.from(edit(body.toString('utf8')))
const lookupPath = /^\/(host|domain)\//

export const READ_MUTANTS: Mutant[] = [
  storeMutant({ id: 'host-adds-neighbour', layer: 'store', breaks: 'a host lookup also returns another address’s events', killedBy: ['host-events-match-ip'], checks: LOOKUP_CHECKS }, {
    host: (host) => async (ip: string) => {
      const mine = await host(ip)
      // Only where there are events already: an unknown address stays empty (unknown-resource-empty's part).
      const other = mine && mine.services.length + mine.leaks.length > 0 ? await host('198.51.100.150') : null
      return mine && other ? { services: [...mine.services, ...other.services], leaks: mine.leaks } : mine
    },
  }),
  storeMutant({ id: 'domain-suffix-match', layer: 'store', breaks: 'a domain lookup matches names that only end with the domain (notexample.com)', killedBy: ['domain-events-match-domain'], checks: LOOKUP_CHECKS }, {
    domain: (domain) => async (name: string) => {
      const mine = await domain(name)
      const alike = name === 'example.com' ? await domain('notexample.com') : null
      return mine && alike ? { services: [...mine.services, ...alike.services], leaks: [...mine.leaks, ...alike.leaks] } : mine
    },
  }),
  storeMutant({ id: 'domain-own-host-only', layer: 'store', breaks: 'a domain lookup leaves out its subdomains’ events', killedBy: ['subdomains-have-events'], checks: LOOKUP_CHECKS }, {
    domain: (domain) => async (name: string) => {
      const all = await domain(name)
      const own = (list: readonly Uint8Array[]) => list.filter((b) => String(parse(b).host).toLowerCase() === name.toLowerCase())
      return all && { services: own(all.services), leaks: own(all.leaks) }
    },
  }),
  storeMutant({ id: 'subdomains-include-domain', layer: 'store', breaks: 'the subdomain list names the domain itself', killedBy: ['subdomains-of-domain'], checks: LOOKUP_CHECKS }, {
    subdomains: (subdomains) => async (name: string, limit?: number) => {
      const list = await subdomains(name, limit)
      return list && list.length > 0 ? [{ ...list[0]!, subdomain: name }, ...list] : list
    },
  }),
  storeMutant({ id: 'leaks-as-services', layer: 'store', breaks: 'leaks are answered under Services', killedBy: ['event-type-routing'], checks: LOOKUP_CHECKS }, {
    host: (host) => async (ip: string) => merged(await host(ip)),
    domain: (domain) => async (name: string) => merged(await domain(name)),
  }),
  storeMutant({ id: 'unknown-host-gets-events', layer: 'store', breaks: 'an address the store knows nothing of is answered with another’s events', killedBy: ['unknown-resource-empty'], checks: LOOKUP_CHECKS }, {
    host: (host) => async (ip: string) => {
      const mine = await host(ip)
      return mine && mine.services.length + mine.leaks.length === 0 ? host('198.51.100.150') : mine
    },
  }),
  proxyMutant({ id: 'unknown-host-404', layer: 'HTTP status', breaks: 'an unknown name is 404, not 200 with nulls', killedBy: ['unknown-resource-404'], checks: LOOKUP_CHECKS }, {
    answer: (asked, a) => (lookupPath.test(asked.url) && a.status === 200 && /^\{"Services":null,"Leaks":null\}$/.test(a.body.toString()) ? { ...a, status: 404, statusMessage: 'Not Found' } : a),
  }),
  proxyMutant({ id: 'distinct-ips-zero', layer: 'HTTP body', breaks: 'distinct_ips is 0', killedBy: ['subdomain-distinct-ips'], checks: LOOKUP_CHECKS }, {
    answer: editJson(/^\/api\/subdomains\//, (b) => (Array.isArray(b) ? b.map((e: Obj) => ({ ...e, distinct_ips: 0 })) : b)),
  }),
  proxyMutant({ id: 'last-seen-seconds', layer: 'HTTP body', breaks: 'last_seen has no milliseconds', killedBy: ['subdomain-last-seen'], checks: LOOKUP_CHECKS }, {
    answer: editJson(/^\/api\/subdomains\//, (b) => (Array.isArray(b) ? b.map((e: Obj) => ({ ...e, last_seen: String(e.last_seen).replace(/\.\d+Z$/, 'Z') })) : b)),
  }),
  proxyMutant({ id: 'event-time-offset', layer: 'HTTP body', breaks: 'event times are written with +00:00, not Z', killedBy: ['event-time-format'], checks: LOOKUP_CHECKS }, {
    answer: (asked, a) => (lookupPath.test(asked.url) ? { ...a, body: text(a.body, (s) => s.replace(/"time":"([^"]+)Z"/g, '"time":"$1+00:00"')) } : a),
  }),
  proxyMutant({ id: 'short-fingerprint', layer: 'HTTP body', breaks: 'fingerprints are cut to 32 hex digits', killedBy: ['event-fingerprint-format'], checks: LOOKUP_CHECKS }, {
    answer: (asked, a) => (lookupPath.test(asked.url) ? { ...a, body: text(a.body, (s) => s.replace(/"event_fingerprint":"([0-9a-f]{32})[0-9a-f]{32}"/g, '"event_fingerprint":"$1"')) } : a),
  }),
  proxyMutant({ id: 'lookup-missing-leaks', layer: 'HTTP body', breaks: 'a lookup answer has no Leaks member', killedBy: ['lookup-shape'], checks: LOOKUP_CHECKS }, {
    answer: editJson(lookupPath, (b) => {
      const { Leaks: _, ...rest } = b as Obj
      return rest
    }),
  }),
  proxyMutant({ id: 'subdomains-as-strings', layer: 'HTTP body', breaks: 'subdomain entries are bare names', killedBy: ['subdomains-shape'], checks: LOOKUP_CHECKS }, {
    answer: editJson(/^\/api\/subdomains\//, (b) => (Array.isArray(b) ? b.map((e: Obj) => e.subdomain) : b)),
  }),
  // HTTP answers on any route.
  proxyMutant({ id: 'html-errors', layer: 'HTTP headers', breaks: 'errors are text/html pages', killedBy: ['content-type-json'], checks: HTTP_CHECKS }, {
    answer: (_, a) => (a.status >= 400 ? { ...a, headers: { ...a.headers, 'content-type': 'text/html' }, body: Buffer.from(`<h1>${a.status}</h1>`) } : a),
  }),
  proxyMutant({ id: 'long-name-500', layer: 'HTTP status', breaks: 'a very long path parameter is a 500', killedBy: ['no-5xx'], checks: HTTP_CHECKS }, {
    answer: (asked, a) => (asked.url.length > 250 && a.status === 400 ? { ...a, status: 500, statusMessage: 'Internal Server Error' } : a),
  }),
  proxyMutant({ id: 'slow-preflight', layer: 'HTTP timing', breaks: 'a lookup takes 1.5 s (over --max-response-time 1000)', killedBy: ['response-time'], checks: HTTP_CHECKS, options: { maxResponseTimeMs: 1000 } }, {
    answer: async (asked, a) => {
      if (asked.url === '/host/198.18.0.1') await new Promise((resolve) => setTimeout(resolve, 1500))
      return a
    },
  }),
  // The OpenAPI document's promises.
  proxyMutant({ id: 'method-404', layer: 'HTTP status', breaks: 'another method of a known path is 404, not 405', killedBy: ['unsupported-method'], checks: OPENAPI_CHECKS }, {
    answer: (_, a) => (a.status === 405 ? { ...a, status: 404, statusMessage: 'Not Found', headers: { ...a.headers, allow: [] } } : a),
  }),
  proxyMutant({ id: 'method-no-allow', layer: 'HTTP headers', breaks: 'a 405 names no allowed method', killedBy: ['unsupported-method'], checks: OPENAPI_CHECKS }, {
    answer: (_, a) => {
      const { allow: _allow, ...headers } = a.headers
      return { ...a, headers }
    },
  }),
  proxyMutant({ id: 'negative-page-read-as-0', layer: 'HTTP parameters', breaks: 'page=-1 is read as page 0', killedBy: ['param-constraints'], checks: OPENAPI_CHECKS }, {
    request: (asked) => ({ ...asked, url: asked.url.replace(/([?&]page=)-\d+/, '$10') }),
  }),
  proxyMutant({ id: 'bad-cursor-ignored', layer: 'paging', breaks: 'a malformed cursor is ignored (first page)', killedBy: ['param-constraints'], checks: OPENAPI_CHECKS }, {
    request: (asked) => ({ ...asked, url: asked.url.replace(/([?&])cursor=[^&]*[^0-9&][^&]*(&|$)/, '$1') }),
  }),
  proxyMutant({ id: 'scope-defaults-to-leak', layer: 'HTTP parameters', breaks: 'a search without scope is read as scope=leak', killedBy: ['param-constraints'], checks: OPENAPI_CHECKS }, {
    request: (asked) => (asked.url.startsWith('/search') && !/[?&]scope=/.test(asked.url) ? { ...asked, url: `${asked.url}${asked.url.includes('?') ? '&' : '?'}scope=leak` } : asked),
  }),
  // Keys and plans.
  proxyMutant({ id: 'wrong-key-as-anonymous', layer: 'keys', breaks: 'an unknown key is served as no key', killedBy: ['wrong-key-refused'], checks: KEY_CHECKS }, {
    request: (asked) => {
      const key = asked.headers['api-key']
      if (typeof key !== 'string' || key === '' || KNOWN_KEYS.has(key)) return asked
      const { 'api-key': _, ...headers } = asked.headers
      return { ...asked, headers }
    },
  }),
  proxyMutant({ id: 'wrong-key-as-pro', layer: 'keys', breaks: 'an unknown key is served as the pro plan', killedBy: ['key-required', 'wrong-key-refused'], checks: KEY_CHECKS }, {
    request: (asked) => {
      const key = asked.headers['api-key']
      return typeof key === 'string' && key !== '' && !KNOWN_KEYS.has(key) ? { ...asked, headers: { ...asked.headers, 'api-key': DEMO_SECRETS.pro } } : asked
    },
  }),
  proxyMutant({ id: 'resources-without-key', layer: 'keys', breaks: 'GET /api/resources without a key is served', killedBy: ['key-required'], checks: KEY_CHECKS }, {
    request: (asked) => (asked.url.startsWith('/api/resources') && !asked.headers['api-key'] ? { ...asked, headers: { ...asked.headers, 'api-key': DEMO_SECRETS.registered } } : asked),
  }),
  // Plugins.
  storeMutant({ id: 'plugin-counts-inverted', layer: 'plugin counts', breaks: 'the last hour counts more than the week', killedBy: ['plugin-counts'], checks: PLUGIN_CHECKS }, {
    plugins: (plugins) => async (now: bigint) => (await plugins(now)).map((p) => ({ ...p, count1h: p.count7d + 1 })),
  }),
  proxyMutant({ id: 'plugin-description-differs', layer: 'HTTP body', breaks: 'one plugin’s description is not the list’s', killedBy: ['plugin-found'], checks: PLUGIN_CHECKS }, {
    answer: editJson(/^\/api\/plugins\/[^/?]+/, (b) => (typeof b === 'object' && b !== null ? { ...(b as Obj), description: `${String((b as Obj).description)} (another)` } : b)),
  }),
  proxyMutant({ id: 'plugin-unknown-null', layer: 'HTTP status', breaks: 'an unknown plugin is 200 null', killedBy: ['plugin-unknown'], checks: PLUGIN_CHECKS }, {
    answer: (asked, a) => (asked.url.startsWith('/api/plugins/') && a.status === 404 ? { ...a, status: 200, statusMessage: 'OK', body: Buffer.from('null') } : a),
  }),
  proxyMutant({ id: 'plugin-counts-as-text', layer: 'HTTP body', breaks: 'plugin counts are strings', killedBy: ['plugins-shape'], checks: PLUGIN_CHECKS }, {
    answer: editJson(/^\/api\/plugins(\?|$)/, (b) => (Array.isArray(b) ? b.map((p: Obj) => ({ ...p, event_count7d: String(p.event_count7d) })) : b)),
  }),
]

function merged(l: Lookup | null): Lookup | null {
  return l && { services: [...l.services, ...l.leaks], leaks: [] }
}
