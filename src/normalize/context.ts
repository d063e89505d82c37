/** What a normaliser needs besides the value: the options, and where to report problems. */
import type { Issue, IssueCode } from '../validate/issue.js'

export type HeaderCase = 'keep' | 'lower'
export type FingerprintMode = 'keep' | 'v1' | 'v2' | 'missing'
export type HeaderOrder = 'sorted' | 'input'
export type Escape = 'plain' | 'go'

/** How canonical text is written (they change bytes, never values). */
export interface WriteOptions {
  /**
   * `sorted` (default): header maps written with their names in byte order of their UTF-8
   * bytes, as the original Go tools write every map; `input`: in the order the map lists them.
   */
  headerOrder?: HeaderOrder
  /**
   * `plain` (default): JSON.stringify's escapes only (UTF-8 text as it is); `go`: also the
   * escapes Go's encoder writes (`\u003c` `\u003e` `\u0026` `\u2028` `\u2029`, `\u0008`, `\u000c`).
   */
  escape?: Escape
}

export interface NormalizeOptions extends WriteOptions {
  /** `keep` (default): header names as given; `lower`: lower-case them, merging names that then collide. */
  headerCase?: HeaderCase
  /**
   * `keep` (default): never recompute `event_fingerprint` (only its hex is lower-cased);
   * `v1`/`v2`: always recompute with that version; `missing`: compute version 1 where empty.
   */
  fingerprint?: FingerprintMode
}

export type Options = Required<NormalizeOptions>

export const resolveOptions = (opts: NormalizeOptions = {}): Options => ({
  headerCase: opts.headerCase ?? 'keep',
  fingerprint: opts.fingerprint ?? 'keep',
  headerOrder: opts.headerOrder ?? 'sorted',
  escape: opts.escape ?? 'plain',
})

/** Collects issues while a document is normalised; errors make the result fail. */
export class Context {
  readonly errors: Issue[] = []
  readonly warnings: Issue[] = []
  constructor(readonly options: Options) {}

  error(code: IssueCode, pointer: string, message: string, extra: Partial<Issue> = {}): void {
    this.errors.push({ code, pointer, message, ...extra })
  }

  warn(code: IssueCode, pointer: string, message: string): void {
    this.warnings.push({ code, pointer, message })
  }

  /** A wrong_type error: `expected X, found Y`. */
  wrongType(pointer: string, expected: string, value: unknown): void {
    this.error('wrong_type', pointer, `expected ${expected}, found ${describe(value)}`, { expected, found: value })
  }
}

/** JSON type of a value as a person reads it. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value
}

/** Type and, for scalars, a short rendering of the value. */
export function describe(value: unknown): string {
  const type = jsonType(value)
  return type === 'null' || type === 'array' || type === 'object' ? type : `${type} ${show(value)}`
}

export function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}

/** A plain JSON object (not null, not an array). */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Sets a member as plain data, even for names such as `__proto__` (no setter is ever called). */
export function setData(target: object, name: string, value: unknown): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true })
}
