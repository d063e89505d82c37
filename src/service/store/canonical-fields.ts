/**
 * The members the indexes need, read straight from canonical event text (text that
 * isCanonicalText accepted): members are in canonical order, there are no unknown members,
 * and every `"` inside a string is escaped, so each member is found by its literal prefix.
 */
import { EVENT_MEMBERS } from '../../normalize/shape.js'
import { membersPattern } from '../../normalize/object.js'
import { type Check, STRING } from '../../normalize/pattern.js'
import { resolveOptions } from '../../normalize/context.js'

export interface CanonicalFields {
  eventType: string
  source: string
  fingerprint: string
  ip: string
  host: string
  port: string
  time: string
  /** `leak.severity` ('' for events that are not leaks). */
  severity: string
}

/** The fields, or null if the text does not have the expected layout (then parse it instead). */
export function canonicalFields(text: string): CanonicalFields | null {
  let at = 0
  const read = (prefix: string): string | null => {
    if (!text.startsWith(prefix, at)) return null
    const value = stringAt(text, at + prefix.length)
    if (value === null) return null
    at = value.end + 1
    return value.text
  }
  const eventType = read('{"event_type":"')
  const source = read(',"event_source":"')
  if (eventType === null || source === null) return null
  // The pipeline is a list of strings; its end is the first `],"event_fingerprint":"` outside strings.
  const pipelineEnd = text.indexOf('],"event_fingerprint":"', at)
  if (pipelineEnd === -1) return null
  at = pipelineEnd + 1
  const fingerprint = read(',"event_fingerprint":"')
  const ip = read(',"ip":"')
  const host = read(',"host":"')
  const reverse = read(',"reverse":"')
  const port = read(',"port":"')
  // `time` is the last member called "time": no member after it has that name.
  at = text.lastIndexOf(',"time":"')
  const time = at === -1 ? null : read(',"time":"')
  if (fingerprint === null || ip === null || host === null || reverse === null || port === null || time === null) return null
  // `leak` is the last object member holding strings named so: tags, geoip and network follow it.
  at = text.lastIndexOf(',"leak":{"stage":"')
  const stage = at === -1 ? null : read(',"leak":{"stage":"')
  const type = stage === null ? null : read(',"type":"')
  const severity = type === null ? null : read(',"severity":"')
  if (severity === null) return null
  return { eventType, source, fingerprint, ip, host, port, time, severity }
}

/** The country and network members search indexes (prepare.ts turns them into Prepared's). */
export interface SearchFields {
  countryCode: string
  countryName: string
  asn: number
}

/**
 * geoip's country and network's asn, read from the end of canonical text (text that
 * isCanonicalText accepted): `geoip` and `network` are its last two members, and `,"geoip":{`
 * cannot occur inside a string (its quotes would be escaped) nor in a header map (whose
 * values are strings). Null when the text does not have that layout.
 */
export function canonicalSearchFields(text: string): SearchFields | null {
  let at = text.lastIndexOf(',"geoip":{"continent_name":"')
  if (at === -1) return null
  at += ',"geoip":{"continent_name":"'.length
  const strings: string[] = []
  for (const prefix of ['', ',"region_iso_code":"', ',"city_name":"', ',"country_iso_code":"', ',"country_name":"']) {
    if (!text.startsWith(prefix, at)) return null
    const value = stringAt(text, at + prefix.length)
    if (value === null) return null
    strings.push(value.text)
    at = value.end + 1
  }
  const network = text.lastIndexOf(',"network":{"organization_name":"')
  if (network < at) return null
  const org = stringAt(text, network + ',"network":{"organization_name":"'.length)
  if (org === null || !text.startsWith(',"asn":', org.end + 1)) return null
  const asn = /^\d+/.exec(text.slice(org.end + 8, org.end + 28))
  if (asn === null) return null
  return { countryCode: strings[3]!, countryName: strings[4]!, asn: Number(asn[0]) }
}

/** The members canonicalTextFields() captures, in canonical order (`leak` for its severity). */
const INDEXED = ['event_type', 'event_source', 'event_fingerprint', 'ip', 'host', 'port', 'time', 'leak'] as const
const KEEP = resolveOptions({ fingerprint: 'keep' })
const always: Check = () => true

/**
 * The normaliser's canonical pattern for the whole event (normalize/pattern.ts), with one more
 * capture around each indexed member's value: the same texts match, and the match itself
 * hands over the values. Group numbers follow the checks, one per capture group.
 */
function indexedShape(): { re: RegExp; checks: Check[]; groups: number[] } {
  const groups: number[] = []
  let count = 0
  // membersPattern visits the required members in order and adds no group of its own before
  // the optional region at the end (no indexed member is optional), so the groups before a
  // member are the checks of the members before it.
  const pattern = membersPattern(EVENT_MEMBERS, (name, field) => {
    const at = (INDEXED as readonly string[]).indexOf(name)
    let part = field.pattern
    if (at !== -1) {
      groups[at] = count + 1
      part = { source: `(${field.pattern.source})`, checks: [always, ...field.pattern.checks] }
    }
    count += part.checks.length
    return part
  })
  return { re: new RegExp(`^${pattern.source}$`), checks: pattern.checks, groups }
}

let shape: ReturnType<typeof indexedShape> | undefined
const LEAK_SEVERITY = new RegExp(`^\\{"stage":${STRING},"type":${STRING},"severity":(${STRING})`)

/** A canonical JSON string's value (its text with the quotes). */
const stringValue = (quoted: string): string => (quoted.indexOf('\\') === -1 ? quoted.slice(1, -1) : (JSON.parse(quoted) as string))

/**
 * The fields of `text` when it is canonical (what isCanonicalText(text, keep) accepts), read
 * in the same pass that checks it; null when it is not (then parse it instead).
 */
export function canonicalTextFields(text: string): CanonicalFields | null {
  shape ??= indexedShape()
  const m = shape.re.exec(text)
  if (m === null) return null
  const { checks, groups } = shape
  for (let i = 0; i < checks.length; i++) if (checks[i]!(m[i + 1], KEEP) !== true) return null
  const severity = LEAK_SEVERITY.exec(m[groups[7]!]!)
  if (severity === null) return null
  return {
    eventType: stringValue(m[groups[0]!]!),
    source: stringValue(m[groups[1]!]!),
    fingerprint: stringValue(m[groups[2]!]!),
    ip: stringValue(m[groups[3]!]!),
    host: stringValue(m[groups[4]!]!),
    port: stringValue(m[groups[5]!]!),
    time: stringValue(m[groups[6]!]!),
    severity: stringValue(severity[1]!),
  }
}

/** The JSON string whose content starts at `from` (just after its opening quote). */
function stringAt(text: string, from: number): { text: string; end: number } | null {
  let end = text.indexOf('"', from)
  let escaped = false
  while (end !== -1 && isEscaped(text, end, from)) {
    escaped = true
    end = text.indexOf('"', end + 1)
  }
  if (end === -1) return null
  let raw = text.slice(from, end)
  if (escaped || raw.indexOf('\\') !== -1) raw = JSON.parse(`"${raw}"`) as string
  return { text: raw, end }
}

/** True when the quote at `i` is preceded by an odd number of backslashes. */
function isEscaped(text: string, i: number, floor: number): boolean {
  let n = 0
  while (i - 1 - n >= floor && text.charCodeAt(i - 1 - n) === 92) n++
  return n % 2 === 1
}
