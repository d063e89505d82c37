/** A readable block per event: what, where, when, then only the parts that say something. */
import { eventUrl, hasTransport } from '../../event/index.js'
import { ZERO_TIME } from '../../schema/empty.js'
import type { Event } from '../../schema/index.js'
import { addressOf } from './address.js'
import { fieldText, fieldValue, parseFields } from './fields.js'
import { printable } from '../../validate/printable.js'
import type { Output } from './types.js'

/** Summary lines shown before `… N more lines`. */
const SUMMARY_LINES = 8
const LABEL = 12

// Values are terminal-safe (printable()): a banner's ESC or line break cannot reach the terminal.
const row = (label: string, value: string) => `  ${`${label}:`.padEnd(LABEL)} ${printable(value)}`

/** The readable block of one event, ending in a newline. */
export function humanText(e: Event): string {
  const where = [addressOf(e), e.port].filter((p) => p !== '').join(':')
  const title = [e.event_type || 'event', where || '(no address)', e.ip !== '' && e.host !== '' ? `(${e.host})` : '', e.time === ZERO_TIME ? '' : e.time]
  const lines = [printable(title.filter((p) => p !== '').join(' '))]
  const add = (label: string, value: string) => {
    if (value.trim() !== '') lines.push(row(label, value))
  }
  add('source', [e.event_source, e.event_pipeline.length > 1 ? `(${e.event_pipeline.join(' > ')})` : ''].join(' '))
  if (hasTransport(e, 'http') && (e.host !== '' || e.ip !== '')) add('url', eventUrl(e))
  add('transport', [e.transport.join(' '), e.protocol ? `(${e.protocol})` : ''].join(' '))
  if (e.reverse) add('reverse', e.reverse)
  if (e.mac) add('mac', [e.mac, e.vendor].join(' '))
  const h = e.http
  if (h.status || h.title || h.length) add('http', [h.status || '', h.title ? JSON.stringify(h.title) : '', h.length ? `${h.length} bytes` : ''].join(' '))
  if (h.favicon_hash) add('favicon', h.favicon_hash)
  const s = e.ssl
  const c = s.certificate
  if (s.enabled || s.version || c.cn) {
    add('tls', [s.version, s.cypher_suite].join(' '))
    if (c.cn || c.domain.length) add('cert', [c.cn, c.domain.length ? `[${c.domain.join(', ')}]` : '', c.issuer_name ? `issued by ${c.issuer_name}` : ''].join(' '))
    if (c.not_after !== ZERO_TIME) add('valid', `${c.not_before} to ${c.not_after}${c.valid ? ' (name matches)' : ''}`)
    if (c.key_algo) add('key', `${c.key_algo} ${c.key_size || ''}`)
  }
  if (s.jarm) add('jarm', s.jarm)
  if (e.ssh.banner || e.ssh.fingerprint) add('ssh', [e.ssh.banner, e.ssh.fingerprint].join(' '))
  const sw = e.service.software
  const modules = (sw.modules ?? []).map((m) => [m.name, m.version].filter(Boolean).join(' '))
  add('software', [sw.name, sw.version, sw.os ? `(${sw.os})` : '', modules.length ? `+ ${modules.join(', ')}` : ''].join(' '))
  if (e.leak.severity || e.leak.type) add('leak', [e.leak.severity, e.leak.type, e.leak.stage ? `(${e.leak.stage})` : ''].join(' '))
  if (e.tags.length) add('tags', e.tags.join(', '))
  if (e.network.asn || e.network.organization_name) add('network', [e.network.asn ? `AS${e.network.asn}` : '', e.network.organization_name, e.network.network].join(' '))
  const geo = [e.geoip.city_name, e.geoip.country_name || e.geoip.country_iso_code].filter(Boolean).join(', ')
  if (geo) add('geoip', geo)
  if (e.summary.trim() !== '') {
    const text = e.summary.split(/\r?\n/)
    const shown = text.slice(0, SUMMARY_LINES)
    if (text.length > SUMMARY_LINES) shown.push(`… ${text.length - SUMMARY_LINES} more lines`)
    lines.push(row('summary', shown[0] ?? ''), ...shown.slice(1).map((l) => `  ${''.padEnd(LABEL)} ${printable(l)}`))
  }
  if (e.event_fingerprint) add('fingerprint', e.event_fingerprint)
  return `${lines.map((l) => l.replace(/\s+$/, '')).join('\n')}\n`
}

/** `--to human`. */
export const humanOutput: Output = {
  name: 'human',
  description: 'a readable block of lines per event, blocks separated by a blank line',
  eol: '\n',
  format: humanText,
}

/**
 * `--to human --fields …`: a block per event with one `field: value` row per chosen field
 * (values over several lines, such as the summary, continue indented under their row).
 */
export function humanFieldsOutput(names: readonly string[]): Output {
  const chosen = parseFields(names)
  const width = Math.max(...chosen.map((f) => f.name.length)) + 1
  return {
    name: 'human',
    description: humanOutput.description,
    eol: '\n',
    format(e) {
      const rows = chosen.map((f) => `${`${f.name}:`.padEnd(width)} ${fieldText(fieldValue(e, f)).split(/\r?\n/).map((l) => printable(l)).join(`\n${''.padEnd(width + 1)}`)}`)
      return `${rows.map((r) => r.replace(/\s+$/gm, '')).join('\n')}\n`
    },
  }
}
