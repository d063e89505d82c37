/**
 * What a format's `claims(record)` is built from: the members that identify a tool's record.
 * A claim looks at the record's own top-level members (and the shape of a few values), never
 * at text anywhere in it, so a nested member of one tool cannot make another tool's record.
 */
import { type Json, obj } from './values.js'

/** True when `r` has every one of `names` (any value). */
export const hasAll = (r: Json, ...names: string[]) => names.every((n) => Object.hasOwn(r, n))

/** True when `r` has at least one of `names` (any value). */
export const hasAny = (r: Json, ...names: string[]) => names.some((n) => Object.hasOwn(r, n))

/** True when member `name` of `r` is a string. */
export const isText = (r: Json, name: string) => typeof r[name] === 'string'

/** True when member `name` of `r` is a JSON number. */
export const isNumber = (r: Json, name: string) => typeof r[name] === 'number'

/** True when member `name` of `r` is an object. */
export const isObject = (r: Json, name: string) => obj(r[name]) !== undefined

/** True when member `name` of `r` is an array. */
export const isList = (r: Json, name: string) => Array.isArray(r[name])
