/** Turns Ajv's errors into l9kit issues: stable codes, JSON pointers, expected vs found. */
import type { ErrorObject } from 'ajv'
import {
  BASE64,
  BOOLEAN_STRING,
  FINGERPRINT,
  FINGERPRINT_LENIENT,
  INTEGER_STRING,
  NUMBER_STRING,
  PORT,
  PORT_LENIENT,
  TIME_CANONICAL,
  TIME_LENIENT,
  TIME_MILLIS,
} from '../schema/patterns.js'
import { type Issue, type IssueCode, pointerToken } from './issue.js'

const PATTERNS: Record<string, { code: IssueCode; expected: string }> = {
  [TIME_CANONICAL]: { code: 'bad_timestamp', expected: 'canonical UTC time such as 2023-01-02T03:04:05.123Z (Z, no trailing zeros in the fraction)' },
  [TIME_LENIENT]: { code: 'bad_timestamp', expected: 'an RFC 3339 time such as 2023-01-02T03:04:05+02:00' },
  [TIME_MILLIS]: { code: 'bad_timestamp', expected: 'UTC time with exactly 3 fraction digits, such as 2023-01-02T03:04:05.000Z' },
  [FINGERPRINT]: { code: 'bad_fingerprint', expected: '64 lower-case hexadecimal characters, or empty' },
  [FINGERPRINT_LENIENT]: { code: 'bad_fingerprint', expected: '64 hexadecimal characters, or empty' },
  [PORT]: { code: 'bad_port', expected: 'a decimal port 0–65535 without leading zeros, or empty' },
  [PORT_LENIENT]: { code: 'bad_port', expected: 'a port number 0–65535' },
  [BASE64]: { code: 'bad_base64', expected: 'standard base64 text (RFC 4648: A-Z a-z 0-9 + /, padded with =), such as dXNlcjpwYXNz' },
  [INTEGER_STRING]: { code: 'bad_number', expected: 'an integer' },
  [NUMBER_STRING]: { code: 'bad_number', expected: 'a number' },
  [BOOLEAN_STRING]: { code: 'wrong_type', expected: 'a boolean, or yes/no, true/false, 1/0 as text' },
}

/** JSON type name of a value, as a person reads it. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value
}

/** What was found, for messages: its type, and the value when that helps. */
export function found(value: unknown): string {
  const type = jsonType(value)
  return type === 'null' || type === 'array' || type === 'object' ? type : `${type} ${show(value)}`
}

/** A short rendering of a found value for messages. */
export function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}

const typeMatches = (schemaType: unknown, value: unknown): boolean => {
  const types = Array.isArray(schemaType) ? schemaType : [schemaType]
  const actual = jsonType(value)
  return types.some((t) => t === actual || (t === 'number' && actual === 'integer'))
}

/**
 * Ajv reports an `anyOf` as the failure of each branch plus the `anyOf` itself. We keep one
 * issue per location: the failing branch whose type fits the value, else a wrong_type that
 * lists the types the branches allow.
 */
export function toIssues(all: ErrorObject[]): Issue[] {
  // The printable-ASCII guard beside each pattern (schema/json-schema.ts) only fails where the
  // pattern fails too under ECMA-262, so the pattern's error says it all.
  const errors = all.filter((e) => !(e.keyword === 'not' && (e.parentSchema as { pattern?: unknown } | undefined)?.pattern !== undefined))
  const byPath = new Map<string, ErrorObject[]>()
  for (const error of errors) {
    const list = byPath.get(error.instancePath)
    if (list) list.push(error)
    else byPath.set(error.instancePath, [error])
  }
  const issues: Issue[] = []
  for (const [path, group] of byPath) {
    const anyOf = group.find((e) => e.keyword === 'anyOf')
    if (anyOf) {
      // An array-or-null member that is an array, with errors inside it: those errors say it all.
      const inner = errors.some((e) => e.instancePath.startsWith(path + '/'))
      const fits = ((anyOf.schema as Branch[]) ?? []).some((b) => typeMatches(branchType(b), anyOf.data))
      if (!(inner && fits)) issues.push(fromAnyOf(path, anyOf, group))
      for (const error of group) if (error !== anyOf && besideAnyOf(anyOf, error)) issues.push(fromError(error))
      continue
    }
    for (const error of group) issues.push(fromError(error))
  }
  return issues
}

type Branch = { type?: unknown; $ref?: unknown }
/** A branch's type; a reference is always to an object (a part of the event: a protocol object). */
const branchType = (b: Branch) => b.type ?? (b.$ref !== undefined ? 'object' : undefined)

/**
 * Whether `error` (at the same place as `anyOf`) comes from a keyword beside the `anyOf`, not
 * from one of its branches: a branch's errors lie under `anyOf/`, or, for a branch that is a
 * reference to a part, under the part's own schema path (which does not start with the node's).
 */
const besideAnyOf = (anyOf: ErrorObject, error: ErrorObject) =>
  !error.schemaPath.includes('/anyOf/') && error.schemaPath.startsWith(anyOf.schemaPath.slice(0, -'anyOf'.length))

function fromAnyOf(path: string, anyOf: ErrorObject, group: ErrorObject[]): Issue {
  const value = anyOf.data
  const branches = (anyOf.schema as Branch[]) ?? []
  const fitting = group.find((e) => e !== anyOf && e.keyword !== 'type' && typeMatches(e.parentSchema?.type, value))
  if (fitting) return fromError(fitting)
  const expected = branches.map((b) => String(branchType(b))).join(' or ')
  return {
    code: 'wrong_type',
    pointer: path,
    message: `expected ${expected}, found ${found(value)}`,
    rule: `type: ${expected}`,
    expected,
    found: value,
  }
}

function fromError(error: ErrorObject): Issue {
  const path = error.instancePath
  const value = error.data
  switch (error.keyword) {
    case 'required': {
      const name = (error.params as { missingProperty: string }).missingProperty
      return {
        code: 'missing_member',
        pointer: `${path}/${pointerToken(name)}`,
        message: `member '${name}' is missing`,
        rule: 'required',
        expected: `member '${name}'`,
      }
    }
    case 'type': {
      const expected = String((error.params as { type: unknown }).type)
      return {
        code: path === '' && expected === 'object' ? 'not_object' : 'wrong_type',
        pointer: path,
        message: path === '' ? `the document must be a JSON ${expected === 'array' ? 'array' : 'object'}, found ${jsonType(value)}` : `expected ${expected}, found ${found(value)}`,
        rule: `type: ${expected}`,
        expected,
        found: value,
      }
    }
    case 'pattern': {
      const known = PATTERNS[(error.params as { pattern: string }).pattern]
      const expected = known?.expected ?? `text matching ${String((error.params as { pattern: string }).pattern)}`
      return {
        code: known?.code ?? 'invalid',
        pointer: path,
        message: `${show(value)} is not ${expected}`,
        rule: 'pattern',
        expected,
        found: value,
      }
    }
    case 'minimum':
    case 'maximum':
    case 'minLength': {
      const { limit, comparison } = error.params as { limit: number; comparison?: string }
      const expected = error.keyword === 'minLength' ? `at least ${limit} characters` : `${comparison ?? ''} ${limit}`.trim()
      return {
        code: 'out_of_range',
        pointer: path,
        message: `${show(value)} is out of range: must be ${expected}`,
        rule: error.keyword,
        expected,
        found: value,
      }
    }
    default:
      return { code: 'invalid', pointer: path, message: error.message ?? 'invalid', rule: error.keyword, found: value }
  }
}
