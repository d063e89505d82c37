/**
 * One nuclei finding → one `leak` event (stage `open`). Severity from the template
 * (`unknown` → `info` plus the tag `severity:unknown`), type from leak-type.ts, template id
 * and name in `summary` and `tags`, the matched URL's path in `http.url`. `host` is a URL in
 * older output and a host name in v3: both are read.
 */
import { emptyEvent } from '../../schema/empty.js'
import { HTTP_SCHEMES, TLS_SCHEMES, ipVersion, parseUrl, portText, setAddress, splitHostPort } from '../common/net.js'
import type { Mapped } from '../common/records.js'
import { eventTime } from '../common/time.js'
import { type Json, at, obj, pushUnique, str, strings } from '../common/values.js'
import type { ConvertContext } from '../types.js'
import { leakType } from './leak-type.js'

const SEVERITIES = new Set(['critical', 'high', 'medium', 'low', 'info'])

/** Transports by nuclei protocol type (`type`), when no URL scheme says more. */
const TRANSPORT: Readonly<Record<string, string[]>> = {
  http: ['tcp', 'http'],
  headless: ['tcp', 'http'],
  ssl: ['tcp', 'tls'],
  network: ['tcp'],
  tcp: ['tcp'],
  javascript: ['tcp'],
  websocket: ['tcp', 'http'],
  dns: ['udp'],
  whois: ['tcp'],
}

/** One nuclei finding → one leak event, or why not. */
export function mapNuclei(r: Json, ctx: ConvertContext): Mapped {
  const templateId = str(r['template-id'] ?? r.templateID)
  if (templateId === '') return { reason: 'no template-id: not a nuclei finding' }
  const time = eventTime(r.timestamp, ctx)
  if (!time.ok) return time
  const info = obj(r.info) ?? {}
  const e = emptyEvent()
  e.event_type = 'leak'
  e.time = time.value

  // Where: `matched-at` (a URL, or host:port for network templates), then `url`, then `host`.
  const matchedAt = str(r['matched-at'] ?? r.matched)
  const hostField = str(r.host)
  const url = parseUrl(matchedAt) ?? parseUrl(str(r.url)) ?? parseUrl(hostField)
  const hostPort = [matchedAt, hostField].map(splitHostPort).find((x) => 'host' in x)
  const hp = hostPort && 'host' in hostPort ? hostPort : undefined
  setAddress(e, str(r.ip))
  for (const candidate of [url?.host, hp?.host, parseUrl(hostField) ? '' : hostField]) {
    if (!candidate) continue
    if (ipVersion(candidate) === 0) {
      if (e.host === '' && !candidate.includes('/')) setAddress(e, candidate)
    } else if (e.ip === '') setAddress(e, candidate)
  }
  if (e.ip === '' && e.host === '') return { reason: 'no host or IP address (expected host, ip or matched-at)' }
  e.port = portText(r.port) ?? url?.port ?? hp?.port ?? ''

  const scheme = (url?.scheme ?? str(r.scheme)).toLowerCase()
  const type = str(r.type).toLowerCase()
  e.transport = [...(TRANSPORT[type] ?? [])]
  if (HTTP_SCHEMES.has(scheme)) e.transport = ['tcp', 'http']
  if (TLS_SCHEMES.has(scheme) || type === 'ssl') {
    if (!e.transport.includes('tls')) e.transport.splice(e.transport.indexOf('tcp') + 1, 0, 'tls')
    e.ssl.enabled = true
    e.ssl.detected = true
  }
  e.protocol = scheme || (type === 'dns' ? 'dns' : '')
  if (url && HTTP_SCHEMES.has(scheme) && url.path !== '/') e.http.url = url.path

  // Severity: the template's; `unknown` (and anything unlisted) becomes `info`, the least severe value.
  const severity = str(info.severity).trim().toLowerCase()
  e.leak.stage = 'open'
  e.leak.severity = SEVERITIES.has(severity) ? severity : 'info'
  const tags = templateTags(info.tags)
  const classification = obj(info.classification) ?? {}
  const cwes = strings(classification['cwe-id'])
  const cves = strings(classification['cve-id']).map((c) => c.toUpperCase())
  e.leak.type = leakType(cwes, tags)

  pushUnique(e.tags, templateId)
  for (const t of tags) pushUnique(e.tags, t)
  for (const c of cves) if (!e.tags.some((t) => t.toLowerCase() === c.toLowerCase())) e.tags.push(c.toLowerCase())
  if (!SEVERITIES.has(severity)) pushUnique(e.tags, `severity:${severity || 'unknown'}`)

  const name = str(info.name) || templateId
  const lines = [`[${templateId}] ${name} (${severity || 'unknown'})`]
  if (matchedAt) lines.push(`matched-at: ${matchedAt}`)
  const matcher = str(r['matcher-name'])
  if (matcher) lines.push(`matcher: ${matcher}`)
  const extracted = strings(r['extracted-results'])
  if (extracted.length) lines.push(`extracted: ${extracted.join(', ')}`)
  if (cves.length) lines.push(`cve: ${cves.join(', ')}`)
  if (cwes.length) lines.push(`cwe: ${cwes.map((c) => c.toUpperCase()).join(', ')}`)
  const score = at(classification, 'cvss-score')
  if (typeof score === 'number' || (typeof score === 'string' && score !== '')) lines.push(`cvss: ${score}`)
  const description = str(info.description).trim()
  if (description) lines.push(description)
  e.summary = lines.join('\n')
  return e
}

/** `info.tags`: an array in current output, a comma-separated string in older output. */
function templateTags(value: unknown): string[] {
  const list = typeof value === 'string' ? value.split(',') : strings(value)
  return list.map((t) => t.trim()).filter((t) => t !== '')
}
