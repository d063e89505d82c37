/**
 * What every part's configuration reader shares (config.ts and the `config.ts` files of the
 * service's folders): how a problem is reported, how a wrong value is shown in its message, and
 * the reader of an integer member. A leaf below every folder (test/service/layout.test.ts), so
 * ratelimit/, the store and the folders above them read their own members without importing
 * config.ts's layer.
 */

/** Reports one problem of the file: its JSON pointer and what is wrong. */
export type Problem = (pointer: string, message: string) => void

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** A value as a message quotes it: JSON, cut to 40 characters; "nothing" for an absent one. */
export function show(value: unknown): string {
  const text = value === undefined ? 'nothing' : JSON.stringify(value)
  return text.length > 40 ? text.slice(0, 37) + '...' : text
}

/**
 * `obj[member]` when it is an integer from `least` to `most`; undefined when absent or wrong.
 * A wrong one is reported at `at/member` as "must be `rule` (got …)".
 */
export function readInteger(obj: Record<string, unknown>, member: string, at: string, least: number, most: number, rule: string, problem: Problem): number | undefined {
  const value = obj[member]
  if (value === undefined) return undefined
  if (Number.isSafeInteger(value) && (value as number) >= least && (value as number) <= most) return value as number
  problem(`${at}/${member}`, `must be ${rule} (got ${show(value)})`)
  return undefined
}
