/**
 * The one shape every normaliser has: the value of an absent member, the fix that turns a
 * lenient value into its canonical form (reporting what it cannot fix), and two fast tests
 * that a value — parsed, or still as JSON text — is already canonical (so canonical input
 * can be written through untouched).
 */
import type { Context, Options } from './context.js'
import type { Pattern } from './pattern.js'

export interface Field<T = unknown> {
  /** Value written when the member is absent. */
  empty(): T
  /** Canonical form of a present value; on failure reports to `ctx` and returns `empty()`. */
  fix(value: unknown, pointer: string, ctx: Context): T
  /** True when `value` is exactly what `fix` would return (no allocation on the happy path). */
  canonical(value: unknown, options: Options): boolean
  /** The JSON text of canonical values, as a regular expression with checks (see pattern.ts). */
  pattern: Pattern
  /**
   * `pattern`, widened to the text of common lenient values that fix() turns canonical without
   * a warning (a port written as a number, `null` for an empty list, …): their captures'
   * checks return the canonical text to write instead (pattern.ts, `rewrite`). Absent: only
   * canonical text.
   */
  lenient?: Pattern
  /**
   * The member may be left out (the protocol objects and their members, object.ts): absent, or
   * `null` on input, it stays absent; `empty()` is never written for it.
   */
  optional?: boolean
}

/** `field` as a member that may be left out (see Field.optional). */
export const optional = <T>(field: Field<T>): Field<T> => ({ ...field, optional: true })

/** Escapes one reference token of a JSON pointer (RFC 6901). */
export const token = (name: string) => (/[~/]/.test(name) ? name.replace(/~/g, '~0').replace(/\//g, '~1') : name)
