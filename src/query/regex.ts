/**
 * `field:~pattern`: regular expressions in a small syntax that both matchers run in linear
 * time and read the same way. The pattern is parsed here, then written out for re2js (a port
 * of RE2: the evaluator and the memory store) and for PostgreSQL (its ARE engine, which without
 * back-references needs no backtracking). Never a backtracking engine such as V8's.
 *
 * Syntax: literal characters; `\` before punctuation for the character itself; `\n \r \t`;
 * `.` any character (line breaks too); classes `[abc]`, `[a-z]`, `[^…]`; `\d \w \s` (ASCII:
 * `[0-9]`, `[0-9A-Za-z_]`, `[ \t\n\v\f\r]`) and `\D \W \S`; groups `( … )`; `|`; `* + ?
 * {n} {n,} {n,m}`. The pattern matches the whole value (no `^`, `$`), case-sensitively.
 * Bounds: MAX_PATTERN characters, repetition counts up to MAX_REPEAT, at most MAX_SIZE
 * characters once repetitions are counted out, and counts of nested repetitions multiplying to
 * at most MAX_NESTED_REPEAT (RE2's own rule: checked here, so its message never reaches a user).
 *
 * The matcher is compiled when first used, not when the query is parsed: a large pattern takes
 * milliseconds to compile, and a query's cost (cost.ts) is checked before anything runs it. The
 * evaluation that runs it is off the thread that answers lookups, and SQL never compiles it.
 */
import { createRequire } from 'node:module'
import type { RE2JS as Re2 } from 're2js'
import { codePointEscape } from './text.js'

// re2js (260 kB) is loaded when a query first has a pattern, through its CommonJS build (a
// synchronous load): `filter` and the query parser start without it (issue 39).
let re2: typeof Re2 | undefined
const RE2JS = () => (re2 ??= (createRequire(import.meta.url)('re2js') as { RE2JS: typeof Re2 }).RE2JS)

export const MAX_PATTERN = 256
export const MAX_REPEAT = 100
export const MAX_SIZE = 2000
/** RE2's bound on the product of nested repetition counts (its `invalid repeat count` beyond). */
export const MAX_NESTED_REPEAT = 1000

type Ranges = [number, number][]
type R =
  | { t: 'set'; ranges: Ranges } // one character out of these ranges (a literal is a set of one)
  | { t: 'cat'; items: R[] }
  | { t: 'alt'; items: R[] }
  | { t: 'rep'; item: R; min: number; max: number }

/** A parsed pattern, ready for both matchers. */
export interface Regex {
  /** As written. */
  source: string
  /** True when the whole (sanitised) value matches. */
  test(value: string): boolean
  /** The same pattern for PostgreSQL's `~`, anchored at both ends. */
  postgres: string
  /** Characters once repetitions are counted out (at most MAX_SIZE): what a match costs per character of the value. */
  size: number
}

/** Why a pattern was refused: `bad_regex` it does not parse, `regex_refused` it is outside the bounds. */
export class RegexProblem extends Error {
  constructor(
    readonly kind: 'bad_regex' | 'regex_refused',
    message: string,
    readonly at: number,
  ) {
    super(message)
  }
}

const MAX_CP = 0x10ffff
const ANY: Ranges = [[1, MAX_CP]]
const DIGIT: Ranges = [[48, 57]]
const WORD: Ranges = [[48, 57], [65, 90], [95, 95], [97, 122]]
const SPACE: Ranges = [[9, 13], [32, 32]]

/** Parses `source`; throws RegexProblem. */
export function parseRegex(source: string): Regex {
  const cps = [...source].map((ch) => ch.codePointAt(0)!)
  if (cps.length > MAX_PATTERN) throw new RegexProblem('regex_refused', `the pattern has ${cps.length} characters; at most ${MAX_PATTERN}`, MAX_PATTERN)
  const tree = new RegexParser(cps).parse()
  const size = sizeOf(tree)
  if (size > MAX_SIZE) throw new RegexProblem('regex_refused', `the pattern is too large once its repetitions are counted (${size} > ${MAX_SIZE})`, 0)
  if (!nestingFits(tree, MAX_NESTED_REPEAT)) {
    throw new RegexProblem('regex_refused', `repetitions nested inside each other multiply to more than ${MAX_NESTED_REPEAT} (as in \`(a{0,40}){0,30}\`): use smaller counts`, 0)
  }
  const re2 = `(?s:${toRe2(tree)})`
  let matcher: Re2 | undefined
  // A small pattern is compiled at once (cheap; a refusal is then the parser's); a large one when first used.
  if (size <= EAGER_SIZE) matcher = compile(re2)
  return { source, size, test: (value) => (matcher ??= compile(re2)).matches(value), postgres: `^(?:${toPg(tree)})$` }
}

/** Patterns up to this size are compiled as they are parsed (well under a millisecond). */
const EAGER_SIZE = 100

/** The RE2 matcher; the library's refusal (which the checks above should leave none of) in our words, never its own. */
function compile(re2: string): Re2 {
  try {
    return RE2JS().compile(re2)
  } catch {
    throw new RegexProblem('regex_refused', 'the pattern is too complex for the linear-time matcher: use fewer or smaller repetitions', 0)
  }
}

/**
 * RE2's rule for nested repetitions (`{n,m}` counts; `*`, `+`, `?` are not counted): going
 * down, each count (its max, or its min when unbounded) divides what is left of `budget`.
 */
function nestingFits(r: R, budget: number): boolean {
  switch (r.t) {
    case 'set':
      return true
    case 'cat':
    case 'alt':
      return r.items.every((item) => nestingFits(item, budget))
    case 'rep': {
      if (repeat(r).startsWith('{')) {
        const m = r.max === Infinity ? r.min : r.max
        if (m === 0) return true
        if (m > budget) return false
        budget = Math.floor(budget / m)
      }
      return nestingFits(r.item, budget)
    }
  }
}

class RegexParser {
  private at = 0
  constructor(private readonly cps: number[]) {}

  private fail(message: string, at = this.at): never {
    throw new RegexProblem('bad_regex', message, at)
  }

  parse(): R {
    const tree = this.alternation(0)
    if (this.at < this.cps.length) this.fail('this `)` closes no group')
    return tree
  }

  private alternation(depth: number): R {
    if (depth > 16) throw new RegexProblem('regex_refused', 'groups are nested more than 16 deep', this.at)
    const items = [this.sequence(depth)]
    while (this.cps[this.at] === 124) {
      this.at++
      items.push(this.sequence(depth))
    }
    return items.length === 1 ? items[0]! : { t: 'alt', items }
  }

  private sequence(depth: number): R {
    const items: R[] = []
    for (;;) {
      const c = this.cps[this.at]
      if (c === undefined || c === 124 || c === 41) break
      let atom = this.atom(depth)
      atom = this.quantified(atom)
      items.push(atom)
    }
    return items.length === 1 ? items[0]! : { t: 'cat', items }
  }

  private atom(depth: number): R {
    const c = this.cps[this.at]!
    const start = this.at
    this.at++
    switch (c) {
      case 40: {
        if (this.cps[this.at] === 63) this.fail('`(?` constructs are not supported', start)
        const inner = this.alternation(depth + 1)
        if (this.cps[this.at] !== 41) this.fail('this group is never closed: add `)`', start)
        this.at++
        return inner
      }
      case 46:
        return { t: 'set', ranges: ANY }
      case 91:
        return { t: 'set', ranges: this.charClass(start) }
      case 92:
        return { t: 'set', ranges: this.escape(false) }
      case 94:
      case 36:
        return this.fail('the pattern always matches the whole value: leave out `^` and `$`', start)
      case 42:
      case 43:
      case 63:
        return this.fail('a repetition needs something before it to repeat', start)
      case 123:
        return this.fail('`{` starts a repetition count; write `\\{` for the character', start)
      default:
        return { t: 'set', ranges: [[c, c]] }
    }
  }

  private quantified(atom: R): R {
    const c = this.cps[this.at]
    let min: number
    let max: number
    const start = this.at
    if (c === 42) [min, max] = [0, Infinity]
    else if (c === 43) [min, max] = [1, Infinity]
    else if (c === 63) [min, max] = [0, 1]
    else if (c === 123) {
      const m = /^\{(\d{1,4})(,(\d{0,4}))?\}/.exec(String.fromCodePoint(...this.cps.slice(this.at, this.at + 12)))
      if (m === null) return this.fail('a repetition count is `{n}`, `{n,}` or `{n,m}`')
      min = Number(m[1])
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3])
      if (max < min) this.fail(`in \`${m[0]}\` the larger count comes second`)
      if (min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT)) throw new RegexProblem('regex_refused', `repetition counts go up to ${MAX_REPEAT}`, start)
      this.at += m[0].length - 1
    } else return atom
    this.at++
    const next = this.cps[this.at]
    if (next === 42 || next === 43 || next === 63 || next === 123) this.fail('a repetition cannot be repeated directly (lazy and possessive forms are not supported): use a group')
    return { t: 'rep', item: atom, min, max }
  }

  /** After `\`: the ranges it stands for (`inClass`: inside `[…]`). */
  private escape(inClass: boolean): Ranges {
    const c = this.cps[this.at]
    if (c === undefined) this.fail('the pattern ends with a lone `\\`', this.at - 1)
    this.at++
    switch (c) {
      case 100: return DIGIT // d
      case 68: return complement(DIGIT) // D
      case 119: return WORD // w
      case 87: return complement(WORD) // W
      case 115: return SPACE // s
      case 83: return complement(SPACE) // S
      case 110: return [[10, 10]] // n
      case 114: return [[13, 13]] // r
      case 116: return [[9, 9]] // t
    }
    const isAlnum = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)
    if (isAlnum || c > 127) this.fail(`\`\\${String.fromCodePoint(c)}\` is not supported${inClass ? ' in a class' : ''}: escape only punctuation`, this.at - 2)
    return [[c, c]]
  }

  private charClass(start: number): Ranges {
    let negated = false
    if (this.cps[this.at] === 94) {
      negated = true
      this.at++
    }
    const ranges: Ranges = []
    let first = true
    for (;;) {
      const c = this.cps[this.at]
      if (c === undefined) this.fail('this class is never closed: add `]`', start)
      if (c === 93 && !first) break
      first = false
      const lo = this.classChar()
      if (lo.length === 1 && lo[0]![0] === lo[0]![1] && this.cps[this.at] === 45 && this.cps[this.at + 1] !== 93 && this.cps[this.at + 1] !== undefined) {
        this.at++
        const hi = this.classChar()
        if (hi.length !== 1 || hi[0]![0] !== hi[0]![1]) this.fail('a range ends with one character')
        if (hi[0]![0] < lo[0]![0]) this.fail('in a range the larger character comes second')
        ranges.push([lo[0]![0], hi[0]![0]])
      } else ranges.push(...lo)
    }
    this.at++
    const merged = normalise(ranges)
    return negated ? complement(merged) : merged
  }

  private classChar(): Ranges {
    const c = this.cps[this.at]!
    this.at++
    if (c === 92) return this.escape(true)
    if (c === 91) this.fail('`[` inside a class: write `\\[`', this.at - 1)
    return [[c, c]]
  }
}

/** Sorted, merged ranges without NUL and surrogates (values never hold them: text.ts). */
function normalise(ranges: Ranges): Ranges {
  const parts: Ranges = []
  for (const [lo, hi] of ranges) {
    const a = Math.max(lo, 1)
    if (a <= Math.min(hi, 0xd7ff)) parts.push([a, Math.min(hi, 0xd7ff)])
    if (Math.max(a, 0xe000) <= hi) parts.push([Math.max(a, 0xe000), hi])
  }
  parts.sort((x, y) => x[0] - y[0])
  const out: Ranges = []
  for (const r of parts) {
    const last = out[out.length - 1]
    if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1])
    else out.push([r[0], r[1]])
  }
  return out
}

function complement(ranges: Ranges): Ranges {
  const out: Ranges = []
  let next = 1
  for (const [lo, hi] of normalise(ranges)) {
    if (lo > next) out.push([next, lo - 1])
    next = hi + 1
  }
  if (next <= MAX_CP) out.push([next, MAX_CP])
  return normalise(out)
}

function sizeOf(r: R): number {
  switch (r.t) {
    case 'set':
      return 1
    case 'cat':
    case 'alt':
      return r.items.reduce((n, item) => n + sizeOf(item), 0)
    case 'rep':
      return sizeOf(r.item) * Math.max(1, r.max === Infinity ? r.min + 1 : r.max)
  }
}

const repeat = (r: { min: number; max: number }) =>
  r.min === 0 && r.max === Infinity ? '*' : r.min === 1 && r.max === Infinity ? '+' : r.min === 0 && r.max === 1 ? '?' : `{${r.min},${r.max === Infinity ? '' : r.max}}`

/** The pattern for RE2 (re2js): code points as `\x{…}`. */
function toRe2(r: R): string {
  switch (r.t) {
    case 'set':
      return setText(r.ranges, (cp) => `\\x{${cp.toString(16)}}`)
    case 'cat':
      return r.items.map(toRe2).join('')
    case 'alt':
      return `(?:${r.items.map(toRe2).join('|')})`
    case 'rep':
      return `(?:${toRe2(r.item)})${repeat(r)}`
  }
}

/** The pattern for PostgreSQL: code points as `\u…`/`\U…`. */
function toPg(r: R): string {
  switch (r.t) {
    case 'set':
      return setText(r.ranges, codePointEscape)
    case 'cat':
      return r.items.length === 0 ? '' : r.items.map(toPg).join('')
    case 'alt':
      return `(?:${r.items.map(toPg).join('|')})`
    case 'rep':
      return `(?:${toPg(r.item)})${repeat(r)}`
  }
}

/** A set as a class (or the one escaped character); an empty set as a class that matches nothing. */
function setText(ranges: Ranges, escape: (cp: number) => string): string {
  if (ranges.length === 0) return `[^${escape(1)}-${escape(MAX_CP)}]`
  if (ranges.length === 1 && ranges[0]![0] === ranges[0]![1]) return escape(ranges[0]![0])
  return `[${ranges.map(([lo, hi]) => (lo === hi ? escape(lo) : `${escape(lo)}-${escape(hi)}`)).join('')}]`
}
