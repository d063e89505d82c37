/**
 * The families the checks come in (`--list-checks` groups them, docs/conformance.md's kill
 * table counts mutants per family). A check names its family (Check.family) or gets one from
 * its id: `search-…` is search, `bulk-…` bulk, and so on; ids listed below are placed by name.
 */
import type { Check } from './check.js'

export interface Family {
  id: string
  title: string
}

/** In the order `--list-checks` prints them. */
export const FAMILIES: readonly Family[] = [
  { id: 'shapes', title: 'Shapes and formats of the lookup answers' },
  { id: 'lookups', title: 'What the lookups return' },
  { id: 'keys', title: 'Keys and plans' },
  { id: 'http', title: 'HTTP answers (any route)' },
  { id: 'openapi', title: 'Generic checks from the OpenAPI document (schema/openapi.json)' },
  { id: 'plugins', title: 'Plugins' },
  { id: 'search', title: 'Search' },
  { id: 'bulk', title: 'Bulk export' },
  { id: 'rate-limit', title: 'Rate limit (429)' },
  { id: 'hooks', title: 'Alert hooks (writes)' },
  { id: 'live', title: 'Live stream (writes)' },
  { id: 'lifecycle', title: 'Created and deleted objects (writes)' },
  { id: 'other', title: 'Other' },
]

const BY_ID: Record<string, string> = {
  'lookup-shape': 'shapes',
  'subdomains-shape': 'shapes',
  'event-time-format': 'shapes',
  'event-fingerprint-format': 'shapes',
  'subdomain-distinct-ips': 'shapes',
  'subdomain-last-seen': 'shapes',
  'event-type-routing': 'lookups',
  'host-events-match-ip': 'lookups',
  'domain-events-match-domain': 'lookups',
  'subdomains-of-domain': 'lookups',
  'subdomains-have-events': 'lookups',
  'unknown-resource-empty': 'lookups',
  'unknown-resource-404': 'lookups',
  'no-5xx': 'http',
  'content-type-json': 'http',
}

const BY_PREFIX: [string, string][] = [
  ['search-', 'search'],
  ['bulk-', 'bulk'],
  ['hook-', 'hooks'],
  ['plugin', 'plugins'],
  ['live-', 'live'],
  ['rate-limit-', 'rate-limit'],
  ['wrong-key-', 'keys'],
]

/** The family of a check. */
export function familyOf(check: Pick<Check, 'id' | 'family'>): string {
  return check.family ?? BY_ID[check.id] ?? BY_PREFIX.find(([prefix]) => check.id.startsWith(prefix))?.[1] ?? 'other'
}

/** The checks grouped by family, families in FAMILIES' order, checks in run order; empty families left out. */
export function checksByFamily(checks: readonly Check[]): { family: Family; checks: Check[] }[] {
  return FAMILIES.map((family) => ({ family, checks: checks.filter((c) => familyOf(c) === family.id) })).filter((g) => g.checks.length > 0)
}
