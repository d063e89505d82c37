/**
 * Shodan's `vulns{CVE: {verified, cvss, summary, references}}`. Most are inferred from the
 * software version, not tested (`verified: false`): every CVE id becomes a tag of the service
 * event, and only a verified one also becomes a `leak` event (a copy of the service event, as
 * the format's explorer writes), with a severity from its CVSS score.
 */
import type { Event } from '../../schema/index.js'
import { type Json, obj, pushUnique, str } from '../common/values.js'

/** CVSS v3 qualitative ratings; without a score, `info` (the least severe value). */
export function severityOf(score: number | undefined): string {
  if (score === undefined) return 'info'
  if (score >= 9) return 'critical'
  if (score >= 7) return 'high'
  if (score >= 4) return 'medium'
  return score > 0 ? 'low' : 'info'
}

/** Tags `e` with every CVE id and returns a leak event per verified one. */
export function vulnEvents(e: Event, vulns: Json): Event[] {
  const bannerTags = [...e.tags]
  const ids = Object.keys(vulns)
  for (const id of ids) pushUnique(e.tags, id)
  const out: Event[] = []
  for (const id of ids) {
    const vuln = obj(vulns[id]) ?? {}
    if (vuln.verified !== true) continue
    const raw = typeof vuln.cvss === 'string' ? Number(vuln.cvss) : vuln.cvss
    const score = typeof raw === 'number' && Number.isFinite(raw) && raw >= 0 && raw <= 10 ? raw : undefined
    const summary = str(vuln.summary).trim()
    const tags = [id]
    for (const tag of bannerTags) pushUnique(tags, tag)
    out.push({
      ...e,
      event_type: 'leak',
      summary: `${id} (verified by Shodan${score === undefined ? '' : `, CVSS ${score}`})${summary ? `\n${summary}` : ''}`,
      tags,
      leak: { ...e.leak, stage: 'open', type: 'vulnerability', severity: severityOf(score) },
    })
  }
  return out
}
