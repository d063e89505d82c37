/** Compact canonical JSON of an event: members in canonical order, unknown ones after. */
import type { Event } from '../schema/index.js'
import { type Escape, type HeaderOrder, isObject, setData, type WriteOptions } from './context.js'
import { goEscape } from './go-escape.js'
import { compareNames, namesSorted, sortedMapText } from './header-order.js'
import type { Members, ObjectField } from './object.js'
import { EVENT_MEMBERS } from './shape.js'

interface Order {
  [member: string]: Order | null
}

/**
 * The same order as a list, for the hot check: iterating an array is much cheaper than a
 * `for…in` over a prototype-less object. `sub` is the nested object's order, if any.
 */
interface OrderList {
  names: string[]
  subs: (OrderList | null)[]
}

/**
 * Canonical member order, read once from the normalisers' shape (objects nest, leaves are null):
 * every member, the optional ones (protocol objects, the `ssh` extension) included.
 */
function orderOf(members: Members): Order {
  const order: Order = Object.create(null)
  for (const [name, field] of members) {
    const nested = (field as Partial<ObjectField<unknown>>).members
    order[name] = nested !== undefined && name !== 'header' ? orderOf(nested) : null
  }
  return order
}

function listOf(order: Order): OrderList {
  const names = Object.keys(order)
  return { names, subs: names.map((name) => (order[name] ? listOf(order[name]) : null)) }
}

const EVENT_ORDER = orderOf(EVENT_MEMBERS)
const MODULE_ORDER: Order = Object.assign(Object.create(null), { name: null, version: null, fingerprint: null })
const EVENT_LIST = listOf(EVENT_ORDER)
const MODULE_LIST = listOf(MODULE_ORDER)

function ordered(value: unknown, order: Order): unknown {
  if (!isObject(value)) return value
  const out: Record<string, unknown> = {}
  for (const name in order) {
    if (!Object.hasOwn(value, name)) continue
    const sub = order[name]
    let v = value[name]
    if (sub) v = ordered(v, sub)
    else if (name === 'modules' && Array.isArray(v)) v = v.map((m) => ordered(m, MODULE_ORDER))
    out[name] = v
  }
  for (const name of Object.keys(value)) if (!(name in order)) setData(out, name, value[name])
  return out
}

/**
 * Whether every object already lists its known members in canonical order, before any
 * unknown one. Reads keys only, with `for…in` (no key list allocated per object):
 * normalize()'s output passes, and is then written as it is.
 */
function inOrder(value: unknown, order: OrderList): boolean {
  if (!isObject(value)) return true
  const { names, subs } = order
  let k = 0 // names before k are behind us: seen, or absent
  for (const key in value) {
    let j = k
    while (j < names.length && names[j] !== key) j++
    // An unknown member: no known one may come after it.
    if (j === names.length) return absentFrom(value, names, k)
    // Known members skipped over must be absent (else they come later: out of order).
    if (j > k && !absentFrom(value, names, k, j)) return false
    k = j + 1
    const sub = subs[j]
    const v = value[key]
    if (sub) {
      if (!inOrder(v, sub)) return false
    } else if (key === 'modules' && Array.isArray(v)) {
      for (const m of v) if (!inOrder(m, MODULE_LIST)) return false
    }
  }
  return true
}

function absentFrom(value: Record<string, unknown>, names: string[], from: number, to = names.length): boolean {
  for (let m = from; m < to; m++) if (Object.hasOwn(value, names[m]!)) return false
  return true
}

/**
 * Compact JSON of an event, members in canonical order (unknown members after the known
 * ones, in their own order), header names in byte order. Values are written as they are:
 * pass normalize()'s output for canonical values. eventSerializer() takes options.
 */
export function serializeEvent(event: Event): string {
  return writeCanonical(inOrder(event, EVENT_LIST) ? event : (ordered(event, EVENT_ORDER) as object), 'sorted', 'plain')
}

/**
 * serializeEvent with write options: `headerOrder: 'input'` writes header names in the
 * order the map lists them; `escape: 'go'` adds the escapes Go's encoder writes.
 */
export function eventSerializer(options: WriteOptions = {}): (event: Event) => string {
  const headerOrder = options.headerOrder ?? 'sorted'
  const escape = options.escape ?? 'plain'
  return (event) => writeCanonical(inOrder(event, EVENT_LIST) ? event : (ordered(event, EVENT_ORDER) as object), headerOrder, escape)
}

/** The text of an event whose members are in canonical order already (normalize()'s output). */
export function writeCanonical(event: object, headerOrder: HeaderOrder, escape: Escape): string {
  const text = headerOrder === 'input' ? JSON.stringify(event) : sortedText(event)
  return escape === 'go' ? goEscape(text) : text
}

/** JSON.stringify's text, except that the header map is written in byte order. */
function sortedText(event: object): string {
  const http = (event as { http?: unknown }).http
  const header = isObject(http) ? http.header : undefined
  if (!isObject(header) || namesSorted(header)) return JSON.stringify(event)
  const sorted = sortedMap(header)
  // Names such as "10" and "9", which an object always lists first, in numeric order: by hand.
  if (!namesSorted(sorted)) {
    return writeMembers(event, (name, value) => (name === 'http' ? writeMembers(value as object, (n, v) => (n === 'header' ? sortedMapText(header) : JSON.stringify(v))) : JSON.stringify(value)))
  }
  // The sorted map stands in for the caller's during the one stringify (cheaper than copying
  // the event and http), and the caller's is put back whatever happens.
  const target = http as Record<string, unknown>
  if (!Reflect.set(target, 'header', sorted)) return JSON.stringify({ ...event, http: { ...target, header: sorted } })
  try {
    return JSON.stringify(event)
  } finally {
    target.header = header
  }
}

/**
 * Names being sorted, kept between calls: most maps are small, sorted by insertion into this
 * array with no allocation (Object.keys + sort per event cost the converter bench ~15 MB of
 * peak RSS). A map of more than SMALL names is sorted the usual way.
 */
const scratch: string[] = []
const SMALL = 32

/** The names of a map in byte order. */
function sortedNames(map: Record<string, unknown>): readonly string[] {
  let n = 0
  for (const name in map) {
    if (!Object.hasOwn(map, name)) continue
    if (n === SMALL) return Object.keys(map).sort(compareNames)
    let i = n++
    while (i > 0 && compareNames(scratch[i - 1]!, name) > 0) scratch[i] = scratch[--i]!
    scratch[i] = name
  }
  scratch.length = n
  return scratch
}

/** The same map with its names inserted in byte order (an ordinary object: `__proto__` set as data). */
function sortedMap(map: Record<string, unknown>): Record<string, unknown> {
  const names = sortedNames(map)
  const out: Record<string, unknown> = {}
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!
    if (name === '__proto__') setData(out, name, map[name])
    else out[name] = map[name]
  }
  return out
}

/** An object's JSON text with each member's value written by `write` (undefined: left out). */
function writeMembers(value: object, write: (name: string, value: unknown) => string | undefined): string {
  const parts: string[] = []
  for (const [name, v] of Object.entries(value)) {
    const text = write(name, v)
    if (text !== undefined) parts.push(`${JSON.stringify(name)}:${text}`)
  }
  return `{${parts.join(',')}}`
}
