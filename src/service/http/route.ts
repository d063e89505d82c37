/**
 * Matching a request target to a route: exact prefixes, one path segment as the parameter,
 * the query string ignored. Anything that does not match is a 404.
 */

export type RouteName = 'host' | 'domain' | 'subdomains' | 'ingest'

export interface Target {
  route: RouteName
  /** The raw (still percent-encoded) parameter; '' for ingest. */
  param: string
}

const PREFIXES: [string, RouteName][] = [
  ['/host/', 'host'],
  ['/domain/', 'domain'],
  ['/api/subdomains/', 'subdomains'],
]

/** The route a request target names, or null (→ 404). */
export function matchRoute(url: string): Target | null {
  const q = url.indexOf('?')
  const path = q === -1 ? url : url.slice(0, q)
  if (path === '/admin/events') return { route: 'ingest', param: '' }
  for (const [prefix, route] of PREFIXES) {
    if (!path.startsWith(prefix)) continue
    const param = path.slice(prefix.length)
    // One segment only: `/host/1.2.3.4/x` is not a route.
    if (param.indexOf('/') !== -1) return null
    return { route, param }
  }
  return null
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

export const ROUTES_TEXT = 'GET /host/:ip, GET /domain/:domain, GET /api/subdomains/:domain, POST /admin/events'
