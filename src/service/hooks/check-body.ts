/**
 * Checking hook API bodies against their TypeBox schemas (src/schema/hooks.ts) with Ajv, and
 * describing the first problem with the member it concerns. Shared by the HTTP routes (400
 * answers) and the configuration file (declared resources and hooks).
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js'
import type { TSchema } from 'typebox'
import { SECRET_BYTES } from '../../schema/index.js'

const ajv = new Ajv2020({ allErrors: true, strict: false })
const compiled = new WeakMap<object, ValidateFunction>()

/** A problem with a body: the JSON pointer of the member ('' for the body itself) and what is wrong. */
export interface BodyProblem {
  pointer: string
  message: string
}

/** The problems of `value` against `schema`, one per member, most useful first; [] when valid. */
export function bodyProblems(schema: TSchema, value: unknown): BodyProblem[] {
  let check = compiled.get(schema)
  if (check === undefined) {
    check = ajv.compile(schema as object)
    compiled.set(schema, check)
  }
  if (check(value)) return []
  const byPointer = new Map<string, ErrorObject[]>()
  for (const error of check.errors ?? []) {
    const pointer = error.keyword === 'additionalProperties'
      ? `${error.instancePath}/${(error.params as { additionalProperty: string }).additionalProperty}`
      : error.keyword === 'required'
        ? `${error.instancePath}/${(error.params as { missingProperty: string }).missingProperty}`
        : error.instancePath
    const list = byPointer.get(pointer) ?? []
    list.push(error)
    byPointer.set(pointer, list)
  }
  return [...byPointer].map(([pointer, errors]) => ({ pointer, message: describe(errors) }))
}

/** One sentence for a member's errors; a union of constants becomes "must be one of …". */
function describe(errors: ErrorObject[]): string {
  const first = errors[0]!
  if (first.keyword === 'additionalProperties') return 'unknown member'
  if (first.keyword === 'required') return 'is required'
  const allowed = errors.filter((e) => e.keyword === 'const').map((e) => (e.params as { allowedValue: unknown }).allowedValue)
  if (allowed.length > 0) return `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`
  if (first.keyword === 'pattern' && first.instancePath.endsWith('/secret')) return `must be whsec_ followed by the base64 of ${SECRET_BYTES.min} to ${SECRET_BYTES.max} bytes`
  return first.message ?? 'is not valid'
}

/** The first problem as text: `member /url: is required`, or null when the body is valid. */
export function firstProblem(schema: TSchema, value: unknown): string | null {
  const [problem] = bodyProblems(schema, value)
  if (problem === undefined) return null
  return problem.pointer === '' ? `the body ${problem.message}` : `member ${problem.pointer}: ${problem.message}`
}
