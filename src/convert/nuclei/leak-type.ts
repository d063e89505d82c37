/**
 * nuclei templates carry no leak type; we derive one (the event's `leak.type`) from the
 * template's classification (CWE ids) first, then from its tags, else `vulnerability`.
 */

/** CWE id → leak type, for the weaknesses nuclei templates classify most. */
const BY_CWE: Readonly<Record<string, string>> = {
  'cwe-22': 'lfi',
  'cwe-23': 'lfi',
  'cwe-35': 'lfi',
  'cwe-98': 'lfi',
  'cwe-77': 'rce',
  'cwe-78': 'rce',
  'cwe-94': 'rce',
  'cwe-502': 'rce',
  'cwe-89': 'sqli',
  'cwe-79': 'xss',
  'cwe-918': 'ssrf',
  'cwe-601': 'open_redirect',
  'cwe-611': 'xxe',
  'cwe-287': 'auth_bypass',
  'cwe-288': 'auth_bypass',
  'cwe-306': 'auth_bypass',
  'cwe-798': 'default_credentials',
  'cwe-1392': 'default_credentials',
  'cwe-521': 'default_credentials',
  'cwe-548': 'directory_listing',
  'cwe-200': 'exposure',
  'cwe-16': 'configuration',
}

/** Tag → leak type, in priority order (the first tag of the template found here wins). */
const BY_TAG: readonly (readonly [string, string])[] = [
  ['rce', 'rce'],
  ['lfi', 'lfi'],
  ['traversal', 'lfi'],
  ['sqli', 'sqli'],
  ['xss', 'xss'],
  ['ssrf', 'ssrf'],
  ['xxe', 'xxe'],
  ['redirect', 'open_redirect'],
  ['takeover', 'takeover'],
  ['default-login', 'default_credentials'],
  ['auth-bypass', 'auth_bypass'],
  ['unauth', 'open_database'],
  ['listing', 'directory_listing'],
  ['exposure', 'exposure'],
  ['config', 'configuration'],
  ['misconfig', 'configuration'],
  ['panel', 'panel'],
  ['tech', 'technology'],
  ['ssl', 'tls'],
  ['tls', 'tls'],
  ['dns', 'dns'],
]

/** The leak type of a template from its CWE ids and tags. */
export function leakType(cweIds: readonly string[], tags: readonly string[]): string {
  for (const id of cweIds) {
    const type = BY_CWE[id.trim().toLowerCase()]
    if (type) return type
  }
  const lower = new Set(tags.map((t) => t.trim().toLowerCase()))
  for (const [tag, type] of BY_TAG) if (lower.has(tag)) return type
  return 'vulnerability'
}
