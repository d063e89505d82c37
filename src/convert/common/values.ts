/** Reading loosely typed JSON from tools: small guards that never throw. */

export type Json = Record<string, unknown>

/** A plain JSON object, or undefined. */
export const obj = (value: unknown): Json | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined

/** A string (numbers are written in decimal, as tools mix the two), or ''. */
export function str(value: unknown): string {
  if (typeof value === 'string') return value
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  return ''
}

/** An array of its string members; a single string counts as a one-element list. */
export function strings(value: unknown): string[] {
  if (typeof value === 'string') return value === '' ? [] : [value]
  if (!Array.isArray(value)) return []
  return value.filter((v): v is string => typeof v === 'string' && v !== '')
}

/** A non-negative safe integer from a number or a decimal string, else undefined. */
export function int(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined
}

/** Follows a path of member names; undefined as soon as one is missing. */
export function at(value: unknown, ...path: string[]): unknown {
  let v = value
  for (const name of path) {
    const o = obj(v)
    if (!o || !Object.hasOwn(o, name)) return undefined
    v = o[name]
  }
  return v
}

/** Appends `item` unless it is empty or already present (tags, transports). */
export function pushUnique(list: string[], item: string): void {
  if (item !== '' && !list.includes(item)) list.push(item)
}
