/**
 * Header maps: names are data, never keys of ours, so the map is built on a null-prototype
 * object (`__proto__`, `constructor`, `prototype` are ordinary names). `keep` copies names as
 * given; `lower` lower-cases them and joins the values of names that then collide with `, `
 * (in input order) — except `set-cookie`, whose values may hold commas: those keep their own
 * spelling, one member each, with a warning. The order names are written in is the
 * serialiser's (byte order by default, header-order.ts); here it only decides which text is
 * canonical, and the rewrite pattern puts a map that is out of order in order without a parse.
 */
import { type Context, describe, isObject, setData } from './context.js'
import { type Field, token } from './field.js'
import { compareNames } from './header-order.js'
import { checked, either, replaced, STRING, stringEnd } from './pattern.js'

export type HeaderMap = Record<string, string>

const newMap = (): HeaderMap => Object.create(null) as HeaderMap

function copy(value: Record<string, unknown>, pointer: string, ctx: Context): [string, string][] | undefined {
  const entries: [string, string][] = []
  let ok = true
  for (const name of Object.keys(value)) {
    const v = value[name]
    if (typeof v === 'string') entries.push([name, v])
    else {
      ctx.error('wrong_type', `${pointer}/${token(name)}`, `header value must be a string, found ${describe(v)}`, { expected: 'string', found: v })
      ok = false
    }
  }
  return ok ? entries : undefined
}

function lowerCase(entries: [string, string][], pointer: string, ctx: Context): HeaderMap {
  const out = newMap()
  // A set-cookie name already spelled in lower case keeps that slot; the others keep their spelling.
  const cookieSlotTaken = entries.some(([name]) => name === 'set-cookie')
  let cookieSeen = cookieSlotTaken
  for (const [name, value] of entries) {
    const lower = name.toLowerCase()
    if (lower === 'set-cookie' && name !== 'set-cookie') {
      if (!cookieSeen) {
        cookieSeen = true
        out[lower] = value
        continue
      }
      ctx.warn('invalid', `${pointer}/${token(name)}`, `'${name}' kept apart from 'set-cookie': cookie values cannot be joined with ', '`)
      out[name] = value
      continue
    }
    const existing = Object.hasOwn(out, lower) ? out[lower] : undefined
    out[lower] = existing === undefined ? value : `${existing}, ${value}`
  }
  return out
}

const allStringValues = (value: Record<string, unknown>, lower: boolean) => {
  for (const name in value) {
    if (!Object.hasOwn(value, name)) return false
    if (typeof value[name] !== 'string') return false
    if (lower && name !== name.toLowerCase()) return false
  }
  return true
}

/** `http.header`: `null` or absent becomes `{}`. */
export const headers: Field<HeaderMap> = {
  empty: newMap,
  fix(value, pointer, ctx) {
    if (value === null) return newMap()
    if (!isObject(value)) {
      ctx.wrongType(pointer, 'object (header name to value)', value)
      return newMap()
    }
    const entries = copy(value, pointer, ctx)
    if (!entries) return newMap()
    if (ctx.options.headerCase === 'lower') return lowerCase(entries, pointer, ctx)
    const out = newMap()
    for (const [name, v] of entries) setData(out, name, v)
    return out
  },
  canonical: (value, options) => isObject(value) && allStringValues(value, options.headerCase === 'lower'),
  pattern: headerMap(false),
  lenient: either(replaced('null', '{}'), headerMap(true)),
}

/** The map's text; `rewrite`: a map whose only fault is its order is written sorted (pattern.ts, `rewrite`). */
function headerMap(rewrite: boolean) {
  return checked(`\\{(?:${STRING}:${STRING}(?:,${STRING}:${STRING})*)?\\}`, (t = '{}', options) => {
    const lower = options.headerCase === 'lower'
    if (options.headerOrder === 'input') return namesCanonical(t, lower)
    return rewrite ? sortedText(t, lower) : namesAscending(t, lower)
  })
}

/**
 * Like namesAscending, but a map of distinct names out of order gives its text sorted: the
 * pairs are moved as they are written, so a tool's map is put in order without a parse.
 */
function sortedText(text: string, lower: boolean): boolean | string {
  if (namesAscending(text, lower)) return true
  const pairs: { name: string; text: string }[] = []
  for (let at = 1; at < text.length; ) {
    const end = stringEnd(text, at)
    const name = text.slice(at + 1, end - 1)
    if (lower && name !== name.toLowerCase()) return false
    const valueEnd = stringEnd(text, end + 1)
    pairs.push({ name, text: text.slice(at, valueEnd) })
    at = valueEnd + 1 // past the ',' or '}'
  }
  pairs.sort((a, b) => compareText(a.name, b.name))
  // A name given twice: the value a parse keeps (the last) decides, so take the long way.
  for (let i = 1; i < pairs.length; i++) if (compareText(pairs[i - 1]!.name, pairs[i]!.name) === 0) return false
  return `{${pairs.map((p) => p.text).join(',')}}`
}

/**
 * Names of a header map text that matched the canonical pattern, in the canonical (byte)
 * order: each one after the one before (so distinct too), lower-case in `lower` mode. The
 * text is written through, never parsed, so names that look like array indices are fine.
 */
function namesAscending(text: string, lower: boolean): boolean {
  if (text === '{}') return true
  let prev: string | undefined
  let at = 1
  for (;;) {
    const end = stringEnd(text, at)
    const name = text.slice(at + 1, end - 1) // still escaped, quotes left out
    if ((lower && name !== name.toLowerCase()) || (prev !== undefined && compareText(prev, name) >= 0)) return false
    prev = name
    at = stringEnd(text, end + 1) + 1 // past the value and the ',' or '}'
    if (at >= text.length) return true
  }
}

/** Byte order of two names as canonical JSON string contents; escaped ones are decoded first. */
const compareText = (a: string, b: string) =>
  a.includes('\\') || b.includes('\\') ? compareNames(JSON.parse(`"${a}"`) as string, JSON.parse(`"${b}"`) as string) : compareNames(a, b)

// Names JavaScript objects list first whatever their position (array indices): their order
// in the text cannot be kept through a parse, so they never take the fast path.
const INDEX_LIKE = /^"(?:0|[1-9][0-9]{0,9})"$/

/**
 * Names of a header map text that matched the canonical pattern: distinct, not index-like,
 * lower-case in `lower` mode. Canonical strings have one spelling each, so names compare
 * as text.
 */
function namesCanonical(text: string, lower: boolean): boolean {
  if (text === '{}') return true
  // A list is quicker than a Set for the handful of names most maps have.
  const names: string[] = []
  let seen: Set<string> | undefined
  let at = 1
  for (;;) {
    const end = stringEnd(text, at)
    const name = text.slice(at, end)
    if ((seen ? seen.has(name) : names.includes(name)) || INDEX_LIKE.test(name) || (lower && name !== name.toLowerCase())) return false
    if (seen) seen.add(name)
    else if (names.push(name) > 16) seen = new Set(names)
    at = stringEnd(text, end + 1) + 1 // past the value and the ',' or '}'
    if (at >= text.length) return true
  }
}
