/**
 * Arbitraries of search queries (docs/search.md) built from events, so that most of them match
 * something: each term takes a value from one of the given events (its address or a range
 * around it, a name it is under, its plugin, port, country, a word or phrase of its text, a
 * bound just below or above one of its numbers or times, …), with a random sign, sometimes in
 * a group. Terms of leak-only fields only when `scope` allows them.
 */
import fc, { type Arbitrary } from 'fast-check'
import { countryNames } from '../../query/countries.js'
import { quote } from '../../query/print.js'
import { parseQuery } from '../../query/query.js'
import { wordsOf } from '../../query/text.js'
import type { Scope } from '../../query/types.js'
import type { Event } from '../../schema/index.js'

/** A value written so the parser reads it back: quoted when it holds anything but plain characters. */
const value = (v: string) => (/^[A-Za-z0-9_.:/@-]+$/.test(v) && v !== '*' ? v : quote(v))

interface Chooser {
  int(lo: number, hi: number): number
  bool(): boolean
}
type TermMaker = (e: Event, r: Chooser) => string | null

const choose = <T>(r: Chooser, items: readonly T[]): T | undefined => (items.length === 0 ? undefined : items[r.int(0, items.length - 1)])
const dayOf = (time: string) => time.slice(0, 10)

const TERMS: TermMaker[] = [
  (e) => (e.ip === '' ? null : `ip:${e.ip}`),
  (e, r) => (e.ip === '' || e.ip.includes(':') ? null : `ip:${e.ip.split('.').slice(0, 3).join('.')}.0/${choose(r, [24, 16, 8])}`),
  (e, r) => (e.ip.includes(':') ? `ip:${e.ip.split(':').slice(0, 2).join(':')}::/${choose(r, [32, 16])}` : null),
  (e, r) => (e.host === '' ? null : `${choose(r, ['host', 'domain'])}:${e.host.split('.').slice(r.int(0, 1)).join('.')}`),
  (e) => `plugin:${value(e.event_source)}`,
  (e) => (e.port === '' ? null : `port:${e.port}`),
  // Ranges on port compare as numbers (what LeakIX's Python client sends: `port:>1000`).
  (e, r) => (e.port === '' ? null : `port:${choose(r, ['>', '<', '>=', '<='])}${e.port}`),
  (e) => (e.leak.severity === '' ? null : `severity:${value(e.leak.severity)}`),
  (e, r) => {
    const code = e.geoip.country_iso_code
    const named = code.length === 2 ? choose(r, countryNames(code.toUpperCase())) : undefined
    const v = choose(r, [code, e.geoip.country_name, named ?? ''].filter((x) => x !== ''))
    return v === undefined ? null : `country:${value(v)}`
  },
  (e) => (e.event_fingerprint === '' ? null : `l9fp:${e.event_fingerprint}`),
  (e, r) => `asn:${choose(r, ['', '>', '<'])}${e.network.asn}`,
  (e, r) => `time:${choose(r, ['>', '<', '>=', ''])}${choose(r, [dayOf(e.time), value(e.time)])}`,
  (e, r) => `http.status:${choose(r, ['', '>', '<='])}${e.http.status}`,
  (e, r) => {
    const word = choose(r, wordsOf(e.summary))
    return word === undefined ? null : value(word)
  },
  (e, r) => {
    const words = wordsOf(e.summary)
    if (words.length < 2) return null
    const at = r.int(0, words.length - 2)
    return quote(`${words[at]} ${words[at + 1]}`)
  },
  (e, r) => {
    const word = choose(r, wordsOf(e.http.title))
    return word === undefined ? null : `http.title:${value(word)}`
  },
  (e, r) => {
    const tag = choose(r, e.tags)
    return tag === undefined ? null : `tags:${value(tag)}`
  },
  (_e, r) => `${choose(r, ['ssl.detected', 'ssl.certificate.valid', 'service.credentials.noauth'])}:${r.bool()}`,
  (e, r) => {
    const [name, v] = choose(r, Object.entries(e.http.header)) ?? []
    if (name === undefined || !/^[A-Za-z0-9_-]+$/.test(name)) return null
    const word = choose(r, wordsOf(v ?? ''))
    return `http.header.${name}:${word === undefined ? '*' : value(word)}`
  },
  (e, r) => {
    const word = choose(r, wordsOf(e.summary).filter((w) => /^[a-z0-9]+$/.test(w)))
    return word === undefined ? null : `summary:~${quote(`.*${word}.*`)}`
  },
  (_e, r) => `${choose(r, ['ssl.jarm', 'reverse', 'summary', 'network.network', 'tags', 'http.header', 'country'])}:*`,
  (e, r) => `ssl.certificate.key_size:${choose(r, ['>', '<', ''])}${e.ssl.certificate.key_size}`,
  (e, r) => `ssl.certificate.not_after:${choose(r, ['>', '<'])}${dayOf(e.ssl.certificate.not_after)}`,
  (e, r) => `geoip.location.lat:${choose(r, ['>', '<'])}${e.geoip.location.lat}`,
  (e) => (e.protocol === '' ? 'protocol:""' : `protocol:${value(e.protocol)}`),
]

const LEAK_TERMS: TermMaker[] = [
  (e, r) => `leak.dataset.rows:${choose(r, ['>', '<', ''])}${e.leak.dataset.rows}`,
  (_e, r) => `${choose(r, ['age:>0', 'age:0', 'age:<3'])}`,
  (e, r) => `${choose(r, ['creation_date', 'update_date'])}:${choose(r, ['>', '<'])}${dayOf(e.time)}`,
  (e) => `dataset.infected:${e.leak.dataset.infected}`,
  (e, r) => {
    const note = choose(r, e.leak.dataset.ransom_notes ?? [])
    const word = note === undefined ? undefined : choose(r, wordsOf(note))
    return word === undefined ? null : `leak.dataset.ransom_notes:${value(word)}`
  },
]

/** One term drawn from one of `events`. */
function term(events: readonly Event[], scope: Scope): Arbitrary<string> {
  const makers = scope === 'service' ? TERMS : [...TERMS, ...LEAK_TERMS]
  return fc.tuple(fc.nat(events.length - 1), fc.nat(makers.length - 1), fc.integer()).map(([i, m, seed]) => {
    const r = chooser(seed)
    // The first maker from `m` on whose term is a valid query (values with control characters are not).
    for (let k = 0; k < makers.length; k++) {
      const t = makers[(m + k) % makers.length]!(events[i]!, r)
      if (t !== null && valid(t, scope)) return t
    }
    return '*'
  })
}

function valid(term: string, scope: Scope): boolean {
  try {
    parseQuery(term, { scope })
    return true
  } catch {
    return false
  }
}

/** The term makers' own small choices, from a seed fast-check drew (so shrinking and replay keep them). */
function chooser(seed: number): Chooser {
  let state = seed | 0 || 1
  const next = () => {
    // xorshift32
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    return state >>> 0
  }
  return { int: (lo, hi) => lo + (next() % (hi - lo + 1)), bool: () => (next() & 1) === 1 }
}

/**
 * Query texts over `events` (at least one): one to four signed clauses, a clause sometimes a
 * group of two or three; most match some of the events.
 */
export function queryFor(events: readonly Event[], scope: Scope = 'any'): Arbitrary<string> {
  const sign = fc.constantFrom('+', '+', '', '', '-')
  const clause: Arbitrary<string> = fc.oneof(
    { weight: 4, arbitrary: fc.tuple(sign, term(events, scope)).map(([s, t]) => s + t) },
    { weight: 1, arbitrary: fc.tuple(sign, fc.array(fc.tuple(sign, term(events, scope)).map(([s, t]) => s + t), { minLength: 2, maxLength: 3 })).map(([s, ts]) => `${s}(${ts.join(' ')})`) },
  )
  return fc.array(clause, { minLength: 1, maxLength: 4 }).map((cs) => cs.join(' '))
}
