/**
 * Queries that can tell (issue 44): "every line matches its query" has no teeth when every line
 * matches anything asked (`*`). From a set of events a server returned, pick a term some of them
 * satisfy and others do not (a port, a plugin, a host, an address), and ask the same query with
 * `+term` and with `-term`: any one extra line satisfies only one of the two, so the other's
 * answer shows it; and the two halves together must be the whole, so a missing line shows too.
 */
import { compareTimeText } from '../../time/index.js'
import { matches, parseQuery, type Scope } from '../../query/index.js'

type Obj = Record<string, unknown>

/** A value written so the query parser reads it back. */
const value = (v: string) => (/^[A-Za-z0-9_.:/@-]+$/.test(v) && v !== '*' ? v : JSON.stringify(v))

/**
 * A term that some but not all of `events` satisfy (in `scope`); undefined when none. Preferred:
 * one that events of `wider` (a larger set the server returned) outside `events` satisfy too (so
 * `q +term` also tells whether `+` is read as required), then the most even split.
 */
export function tellingTerm(events: readonly Obj[], scope: Scope, wider: readonly Obj[] = []): string | undefined {
  if (events.length < 2) return undefined
  const candidates = new Set<string>()
  for (const e of events) {
    if (typeof e.port === 'string' && e.port !== '') candidates.add(`port:${e.port}`)
    if (typeof e.event_source === 'string' && e.event_source !== '') candidates.add(`plugin:${value(e.event_source)}`)
    if (typeof e.host === 'string' && e.host !== '') candidates.add(`host:${value(e.host)}`)
    if (typeof e.ip === 'string' && e.ip !== '') candidates.add(`ip:${e.ip}`)
  }
  const mine = new Set(events.map(eventKey))
  const outside = wider.filter((e) => !mine.has(eventKey(e)))
  let best: { term: string; off: number } | undefined
  for (const term of candidates) {
    let query
    try {
      query = parseQuery(`+${term}`, { scope })
    } catch {
      continue
    }
    const n = events.filter((e) => matches(query, e)).length
    if (n === 0 || n === events.length) continue
    const off = Math.abs(events.length - 2 * n) + (outside.some((e) => matches(query, e)) ? 0 : events.length + 1)
    if (best === undefined || off < best.off) best = { term, off }
  }
  return best?.term
}

/** `base +term` and `base -term` (`*` as the base is left out). */
export const halves = (base: string, term: string): [string, string] => {
  const q = base.trim() === '*' || base.trim() === '' ? '' : `${base} `
  return [`${q}+${term}`, `${q}-${term}`]
}

export const eventKey = (e: unknown) => JSON.stringify(e)

/**
 * What is wrong with a split of `whole` into `plus` and `minus`, or undefined: an event of the
 * whole in neither half or in both, or one of a half missing from the whole.
 */
export function partitionProblem(whole: readonly unknown[], plus: readonly unknown[], minus: readonly unknown[], names: [string, string, string]): string | undefined {
  const [w, p, m] = [whole, plus, minus].map((list) => new Set(list.map(eventKey)))
  for (const key of w!) {
    const inP = p!.has(key)
    const inM = m!.has(key)
    if (inP && inM) return `an event of ${names[0]} is in both ${names[1]} and ${names[2]}: ${describe(key)}`
    if (!inP && !inM) return `an event of ${names[0]} is in neither ${names[1]} nor ${names[2]}: ${describe(key)}`
  }
  for (const [set, name] of [[p!, names[1]], [m!, names[2]]] as const) {
    for (const key of set) if (!w!.has(key)) return `an event of ${name} is not in ${names[0]}: ${describe(key)}`
  }
  return undefined
}

function describe(key: string): string {
  const e = JSON.parse(key) as Obj
  return `${String(e.event_type ?? '?')} of ${String(e.event_source ?? '?')} on ${String(e.ip || e.host || '?')}:${String(e.port ?? '')} at ${String(e.time ?? '?')}`
}

/** The index of the first event newer than the one before it (newest first is the order), or -1. */
export function firstOutOfOrder(events: readonly Obj[]): number {
  for (let i = 1; i < events.length; i++) {
    const a = events[i - 1]!.time
    const b = events[i]!.time
    if (typeof a !== 'string' || typeof b !== 'string') continue
    try {
      if (compareTimeText(b, a) > 0) return i
    } catch {
      // not a time: event-time-format's to judge
    }
  }
  return -1
}
