/**
 * Matching a request target to a route: exact prefixes, one path segment as the parameter,
 * the query string ignored. Anything that does not match is a 404.
 */
import { shown } from './reply.js'

export type RouteName = 'host' | 'domain' | 'subdomains' | 'ingest' | 'resources' | 'hooks' | 'plugins' | 'live' | 'bulk' | 'search' | 'count'

export interface Target {
  route: RouteName
  /**
   * The raw (still percent-encoded) parameter; '' for ingest; the rest of the path (`''` or `/…`)
   * for resources and hooks; the plugin's name for plugins ('' for the list); the scope for live; `search` or `service` for bulk; '' for search.
   */
  param: string
}

/** The route a request target names, or null (→ 404). */
export function matchRoute(url: string): Target | null {
  const q = url.indexOf('?')
  const path = q === -1 ? url : url.slice(0, q)
  // The lookups first, most asked first (the hot path: a few startsWith, no loop, no expression).
  if (path.startsWith('/host/')) return segment(path, 6, 'host')
  if (path.startsWith('/domain/')) return segment(path, 8, 'domain')
  if (path.startsWith('/api/subdomains/')) return segment(path, 16, 'subdomains')
  if (path === '/admin/events') return { route: 'ingest', param: '' }
  // The hook API (docs/hooks.md): its handler splits the rest of the path.
  if (path.startsWith('/api/hooks') && (path.length === 10 || path.charCodeAt(10) === 47)) return { route: 'hooks', param: path.slice(10) }
  if (path.startsWith('/api/resources') && (path.length === 14 || path.charCodeAt(14) === 47)) return { route: 'resources', param: path.slice(14) }
  if (path === '/api/plugins') return { route: 'plugins', param: '' }
  if (path.startsWith('/api/plugins/') && path.indexOf('/', 13) === -1 && path.length > 13) return { route: 'plugins', param: path.slice(13) }
  if (path === '/search') return { route: 'search', param: '' }
  if (path === '/search/count') return { route: 'count', param: '' }
  if (path === '/ws/service' || path === '/ws/leak') return { route: 'live', param: path.slice(4) }
  if (path === '/bulk/search' || path === '/bulk/service') return { route: 'bulk', param: path.slice(6) }
  return null
}

/** A lookup route whose parameter is the one path segment after `at`: `/host/1.2.3.4/x` is not a route. */
function segment(path: string, at: number, route: RouteName): Target | null {
  return path.indexOf('/', at) === -1 ? { route, param: path.slice(at) } : null
}

/** The path of a request target (the query string cut off), for messages. */
export const pathOf = (url: string | undefined): string => {
  const target = url ?? '/'
  const q = target.indexOf('?')
  return q === -1 ? target : target.slice(0, q)
}

/** The decoded parameter, or null when its percent-encoding is malformed. */
export function decodeParam(raw: string): string | null {
  if (raw.indexOf('%') === -1) return raw
  try {
    return decodeURIComponent(raw)
  } catch {
    return null
  }
}

export const ROUTES_TEXT =
  'GET /host/:ip, GET /domain/:domain, GET /api/subdomains/:domain, POST|DELETE /admin/events, ' +
  'GET|POST /api/resources, DELETE /api/resources/:id, GET|POST /api/hooks, GET|DELETE /api/hooks/:id, POST /api/hooks/:id/enable, POST /api/hooks/:id/test, ' +
  'GET /api/hooks/:id/deliveries, POST /api/hooks/:id/deliveries/:delivery/retry, POST /api/hooks/:id/retry-failed, ' +
  'GET /search, GET /search/count, GET /api/plugins, GET /api/plugins/:name, GET /ws/service and /ws/leak (WebSocket), GET /bulk/search, GET /bulk/service'

/** The 400 messages for a path parameter: bad percent-encoding, not an IP address, not a domain name. */
export const badEncoding = (raw: string) => `The path parameter ${shown(raw)} has malformed percent-encoding.`
export const notIp = (param: string) => `${shown(param)} is not an IPv4 or IPv6 address.`
export const notDomain = (param: string) =>
  `${shown(param)} is not a domain name (labels of letters, digits, '-' and '_', at most 253 characters).`
