/** Compact canonical JSON of an event: members in canonical order, unknown ones after. */
import { emptyEvent, type Event } from '../schema/index.js'
import { isObject, setData } from './context.js'

interface Order {
  [member: string]: Order | null
}

/** Canonical member order, read once from emptyEvent() (objects nest, leaves are null). */
function orderOf(value: Record<string, unknown>): Order {
  const order: Order = Object.create(null)
  for (const [name, v] of Object.entries(value)) order[name] = isObject(v) && name !== 'header' ? orderOf(v) : null
  return order
}

const EVENT_ORDER = orderOf(emptyEvent() as unknown as Record<string, unknown>)
const MODULE_ORDER: Order = Object.assign(Object.create(null), { name: null, version: null, fingerprint: null })

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
 * unknown one. Reads keys only: normalize()'s output passes, and is then written as it is.
 */
function inOrder(value: unknown, order: Order): boolean {
  if (!isObject(value)) return true
  const names = Object.keys(value)
  let i = 0
  for (const name in order) {
    if (!Object.hasOwn(value, name)) continue
    if (names[i++] !== name) return false
    const sub = order[name]
    const v = value[name]
    if (sub) {
      if (!inOrder(v, sub)) return false
    } else if (name === 'modules' && Array.isArray(v)) {
      for (const m of v) if (!inOrder(m, MODULE_ORDER)) return false
    }
  }
  return true
}

/**
 * Compact JSON of an event, members in canonical order (unknown members after the known
 * ones, in their own order). Values are written as they are: pass normalize()'s output for
 * canonical values.
 */
export function serializeEvent(event: Event): string {
  return JSON.stringify(inOrder(event, EVENT_ORDER) ? event : ordered(event, EVENT_ORDER))
}
