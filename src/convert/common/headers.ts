/**
 * Building `http.header` (name → string) from the shapes tools write: httpx's snake_case
 * map, ZGrab2's arrays per name, raw header blocks. The map has no prototype, so names such
 * as `__proto__` are ordinary data.
 *
 * Repeated names are joined with `, ` (RFC 9110 §5.3), except `set-cookie`, whose values may
 * themselves hold commas: its values are joined with a newline, which no header value can
 * contain, so each cookie can be split back out exactly.
 */
import { str, strings } from './values.js'

export type HeaderMap = Record<string, string>

/** What joins repeated `set-cookie` values. */
export const COOKIE_SEPARATOR = '\n'

/** Collects headers into a name → string map, joining repeated names. */
export class HeaderBuilder {
  // No prototype, as Object.create(null) gives, but a fast-mode object: that one starts as a
  // slow dictionary, which costs more to fill and to serialise.
  readonly map: HeaderMap = Object.setPrototypeOf({}, null) as HeaderMap
  private count = 0
  // The `name: value` lines as one text, while that equals lines() joined (else lines() decides).
  private joined = ''
  private repeated = false

  /** Adds one value under `name` (lower-cased), joining with any value already there. */
  add(name: string, value: string): void {
    this.addKey(name.trim().toLowerCase(), value)
  }

  /** Adds one value under `key`, a name already trimmed and lower-cased (snakeHeaderKey()). */
  addKey(key: string, value: string): void {
    if (key === '') return
    const existing = this.map[key] // no prototype: nothing inherited to mistake for a value
    const joined = existing === undefined ? value : `${existing}${key === 'set-cookie' ? COOKIE_SEPARATOR : ', '}${value}`
    this.map[key] = joined // no prototype, so `__proto__` is an ordinary own member
    // lines() decides when its order or split would differ: a repeated name, a cookie holding
    // the separator (several lines), a name starting with a digit (maybe an array index, which
    // objects list first).
    const first = key.charCodeAt(0)
    if (existing !== undefined || (first >= 0x30 && first <= 0x39) || (key === 'set-cookie' && value.includes(COOKIE_SEPARATOR))) this.repeated = true
    else this.joined = this.count === 0 ? `${key}: ${value}` : `${this.joined}\n${key}: ${value}`
    this.count++
  }

  get size(): number {
    return this.count
  }

  /** `name: value` lines in insertion order (cookies one line each), for summaries. */
  lines(): string[] {
    const out: string[] = []
    for (const name of Object.keys(this.map)) {
      const value = this.map[name]!
      if (name === 'set-cookie') for (const v of value.split(COOKIE_SEPARATOR)) out.push(`${name}: ${v}`)
      else out.push(`${name}: ${value}`)
    }
    return out
  }

  /** lines() joined with `\n` ('' when none), built as headers come when no name repeats. */
  text(): string {
    return this.repeated ? this.lines().join('\n') : this.joined
  }
}

/** httpx and ZGrab2 write names lower-case with `-` turned into `_`: turn them back. */
export const restoreDashes = (name: string) => (name.includes('_') ? name.replaceAll('_', '-') : name)

// Names seen so far: the same few come in every record. Bounded, as names are data.
const snakeKeys = new Map<string, string>()
const SNAKE_KEYS_MAX = 4096

/** The builder key of a snake_case name (`Content_Type` → `content-type`), remembered. */
export function snakeHeaderKey(name: string): string {
  let key = snakeKeys.get(name)
  if (key === undefined) {
    key = restoreDashes(name).trim().toLowerCase()
    if (snakeKeys.size >= SNAKE_KEYS_MAX) snakeKeys.clear()
    snakeKeys.set(name, key)
  }
  return key
}

/** A map with snake_case names (httpx, katana), values strings or arrays of them, into a builder. */
export function addSnakeHeaderMap(map: Record<string, unknown>, into: HeaderBuilder): void {
  for (const name of Object.keys(map)) {
    const value = map[name]
    const key = snakeHeaderKey(name)
    if (Array.isArray(value)) for (const v of strings(value)) into.addKey(key, v)
    else into.addKey(key, str(value))
  }
}

// Raw header names seen so far, trimmed and lower-cased: the same few come in every record.
const rawKeys = new Map<string, string>()

/** The builder key of a raw header name (`Content-Type ` → `content-type`), remembered. */
function rawHeaderKey(name: string): string {
  let key = rawKeys.get(name)
  if (key === undefined) {
    key = name.trim().toLowerCase()
    if (rawKeys.size >= SNAKE_KEYS_MAX) rawKeys.clear()
    rawKeys.set(name, key)
  }
  return key
}

/**
 * A raw header block (`HTTP/1.1 200 OK\r\nServer: x\r\n…`) into a builder; returns the
 * status line when the block starts with one. Folded continuation lines join the previous value.
 * Lines are cut as `split(/\r?\n/)` would cut them, one at a time: reading stops at the blank
 * line that ends the block, without splitting the body after it.
 */
export function parseRawHeaders(raw: string, into: HeaderBuilder): string {
  let statusLine = ''
  let name: string | undefined
  let value = ''
  for (let start = 0, index = 0; start <= raw.length; index++) {
    const nl = raw.indexOf('\n', start)
    const stop = nl === -1 ? raw.length : nl
    const line = raw.slice(start, nl !== -1 && stop > start && raw.charCodeAt(stop - 1) === 0x0d ? stop - 1 : stop)
    start = nl === -1 ? raw.length + 1 : nl + 1
    if (index === 0 && /^HTTP\/\d/i.test(line)) {
      statusLine = line.trim()
      continue
    }
    if (line.trim() === '') {
      if (name !== undefined || into.size > 0) break // end of the header block
      continue
    }
    const first = line.charCodeAt(0)
    if ((first === 0x20 || first === 0x09) && name !== undefined) {
      value = `${value} ${line.trim()}`
      continue
    }
    const colon = line.indexOf(':')
    if (colon <= 0) continue
    if (name !== undefined) into.addKey(rawHeaderKey(name), value)
    name = line.slice(0, colon)
    value = line.slice(colon + 1).trim()
  }
  if (name !== undefined) into.addKey(rawHeaderKey(name), value)
  return statusLine
}
