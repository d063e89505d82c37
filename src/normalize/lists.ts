/** Normalisers of arrays and of the members the strict profile writes as `null` when empty. */
import { type Context, describe } from './context.js'
import type { Field } from './field.js'
import { checked, either, list, literal, replaced, STRING, stringEnd } from './pattern.js'

function strings(value: unknown, pointer: string, ctx: Context): string[] | undefined {
  if (!Array.isArray(value)) {
    ctx.wrongType(pointer, 'array of strings', value)
    return undefined
  }
  let ok = true
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i]
    if (typeof item !== 'string') {
      ctx.error('wrong_type', `${pointer}/${i}`, `expected string, found ${describe(item)}`, { expected: 'string', found: item })
      ok = false
    }
  }
  return ok ? (value as string[]).slice() : undefined
}

const allStrings = (value: unknown[]) => {
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'string') return false
  return true
}

const unique = (list: string[]) => {
  if (list.length < 2) return true
  if (list.length <= 8) {
    for (let i = 1; i < list.length; i++) if (list.lastIndexOf(list[i]!, i - 1) !== -1) return false
    return true
  }
  return new Set(list).size === list.length
}

/** Array of strings; `null` or absent becomes `[]`; order and duplicates kept (event_pipeline, domains). */
export const texts: Field<string[]> = {
  empty: () => [],
  fix(value, pointer, ctx) {
    if (value === null) return []
    return strings(value, pointer, ctx) ?? []
  },
  canonical: (value) => Array.isArray(value) && allStrings(value),
  pattern: literal(list(literal(STRING))),
  lenient: either(replaced('null', '[]'), literal(list(literal(STRING)))),
}

/**
 * Whether the items of a list of canonical strings (its text) are distinct. A canonical string
 * has one spelling, so items compare as text, without parsing. One item (no comma) is unique.
 */
function uniqueItems(t: string): boolean {
  if (t.indexOf(',') === -1) return true
  const items: string[] = []
  for (let at = 1; at < t.length - 1; ) {
    const end = stringEnd(t, at)
    items.push(t.slice(at, end))
    at = end + 1
  }
  return unique(items)
}

const uniqueList = checked(list(literal(STRING)), (t = '[]') => uniqueItems(t))

/** Like `texts`, and duplicates removed keeping the first of each (transport, tags). */
export const uniqueTexts: Field<string[]> = {
  empty: () => [],
  fix(value, pointer, ctx) {
    if (value === null) return []
    const list = strings(value, pointer, ctx)
    return list && !unique(list) ? [...new Set(list)] : (list ?? [])
  },
  canonical: (value) => Array.isArray(value) && allStrings(value) && unique(value as string[]),
  // Uniqueness is checked after the match; one element (no comma) is unique.
  pattern: uniqueList,
  lenient: either(replaced('null', '[]'), uniqueList),
}

/** An array of `item` or `null`; `null` when none, so `[]` becomes `null` (modules, ransom_notes). */
export function nullableList<T>(item: Field<T>, expected: string): Field<T[] | null> {
  return {
    empty: () => null,
    fix(value, pointer, ctx) {
      if (value === null) return null
      if (!Array.isArray(value)) {
        ctx.wrongType(pointer, `${expected} or null`, value)
        return null
      }
      if (value.length === 0) return null
      return value.map((v: unknown, i) => item.fix(v, `${pointer}/${i}`, ctx))
    },
    canonical(value, options) {
      if (value === null) return true
      if (!Array.isArray(value) || value.length === 0) return false
      for (let i = 0; i < value.length; i++) if (!item.canonical(value[i], options)) return false
      return true
    },
    pattern: literal(`(?:null|${list(item.pattern, true)})`), // [] is written as null
    lenient: either(replaced('\\[\\]', 'null'), literal(`(?:null|${list(item.pattern, true)})`)),
  }
}
