/**
 * The memory store's planner: which events can match a condition, from indexes rather than
 * by reading every event. A plan is a set of candidates and whether they are exactly the
 * matches (then no event needs evaluating) or only include them (then the evaluator decides):
 * - `ids`: these events (sorted ids), from the indexes a store offers (PlanIndexes);
 * - `time`: the events last seen within a range (the store keeps them in time order);
 * - `all`: every event (a test no index answers, a `-` term, …).
 * `+` terms intersect, optional terms unite, and `-` terms subtract what an index answers
 * exactly (otherwise they leave the evaluator to decide).
 */
import type { Bound, Cond, TestCond } from './types.js'

/** Event ids, ascending, each once. */
export type IdSet = Int32Array

export type Plan =
  | { kind: 'all'; exact: boolean }
  | { kind: 'ids'; ids: IdSet; exact: boolean }
  | { kind: 'time'; lo?: Bound; hi?: Bound; exact: boolean }

/** What a store's indexes answer. */
export interface PlanIndexes {
  /**
   * The events for which the test holds (`exact`), or a set that holds them all (then the
   * evaluator decides); undefined when no index answers the test.
   */
  ids(cond: TestCond): { ids: IdSet; exact: boolean } | undefined
}

/** The candidates for `cond` (the scope is the caller's to check). */
export function plan(cond: Cond, indexes: PlanIndexes): Plan {
  switch (cond.kind) {
    case 'all':
      return { kind: 'all', exact: true }
    case 'test':
      return testPlan(cond, indexes)
    case 'bool': {
      let out: Plan = { kind: 'all', exact: true }
      for (const c of cond.must) out = and(out, plan(c, indexes))
      if (cond.must.length === 0 && cond.should.length > 0) out = and(out, cond.should.map((c) => plan(c, indexes)).reduce(or))
      for (const c of cond.not) out = minus(out, plan(c, indexes))
      return out
    }
  }
}

function testPlan(cond: TestCond, indexes: PlanIndexes): Plan {
  const field = cond.fields.length === 1 ? cond.fields[0]! : undefined
  const test = cond.test
  // The kept observation's time is the last seen time: the store's time order.
  if (field !== undefined && test.kind === 'range' && (field.name === 'time' || field.source === 'last_seen')) {
    return { kind: 'time', lo: test.lo, hi: test.hi, exact: true }
  }
  const found = indexes.ids(cond)
  return found === undefined ? { kind: 'all', exact: false } : { kind: 'ids', ids: found.ids, exact: found.exact }
}

function and(a: Plan, b: Plan): Plan {
  if (a.kind === 'all') return { ...b, exact: a.exact && b.exact }
  if (b.kind === 'all') return { ...a, exact: a.exact && b.exact }
  if (a.kind === 'ids' && b.kind === 'ids') return { kind: 'ids', ids: intersect(a.ids, b.ids), exact: a.exact && b.exact }
  if (a.kind === 'time' && b.kind === 'time') {
    return { kind: 'time', lo: tighter(a.lo, b.lo, 1), hi: tighter(a.hi, b.hi, -1), exact: a.exact && b.exact }
  }
  // Ids and a time range: the ids, with the time left to the evaluator.
  const ids = a.kind === 'ids' ? a : (b as Plan & { kind: 'ids' })
  return { kind: 'ids', ids: ids.ids, exact: false }
}

function or(a: Plan, b: Plan): Plan {
  if (a.kind === 'ids' && b.kind === 'ids') return { kind: 'ids', ids: union(a.ids, b.ids), exact: a.exact && b.exact }
  // `all` holds every match of either; exact only when one side is every event.
  return { kind: 'all', exact: (a.kind === 'all' && a.exact) || (b.kind === 'all' && b.exact) }
}

function minus(a: Plan, b: Plan): Plan {
  // Less every event (`http.title:` with no value compiles to `-*`): nothing.
  if (b.kind === 'all' && b.exact) return { kind: 'ids', ids: new Int32Array(0), exact: true }
  if (a.kind === 'ids' && b.kind === 'ids' && b.exact) return { kind: 'ids', ids: difference(a.ids, b.ids), exact: a.exact }
  return { ...a, exact: false }
}

/** The stricter of two lower (`sign` 1) or upper (`sign` -1) bounds. */
function tighter(x: Bound | undefined, y: Bound | undefined, sign: 1 | -1): Bound | undefined {
  if (x === undefined) return y
  if (y === undefined) return x
  if (x.value === y.value) return { value: x.value, inclusive: x.inclusive && y.inclusive }
  return (x.value > y.value) === (sign === 1) ? x : y
}

export function intersect(a: IdSet, b: IdSet): IdSet {
  const out = new Int32Array(Math.min(a.length, b.length))
  let i = 0
  let j = 0
  let n = 0
  while (i < a.length && j < b.length) {
    if (a[i]! < b[j]!) i++
    else if (a[i]! > b[j]!) j++
    else {
      out[n++] = a[i]!
      i++
      j++
    }
  }
  return out.subarray(0, n)
}

export function union(a: IdSet, b: IdSet): IdSet {
  const out = new Int32Array(a.length + b.length)
  let i = 0
  let j = 0
  let n = 0
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]! < b[j]!)) out[n++] = a[i++]!
    else if (i >= a.length || b[j]! < a[i]!) out[n++] = b[j++]!
    else {
      out[n++] = a[i++]!
      j++
    }
  }
  return out.subarray(0, n)
}

export function difference(a: IdSet, b: IdSet): IdSet {
  const out = new Int32Array(a.length)
  let j = 0
  let n = 0
  for (let i = 0; i < a.length; i++) {
    while (j < b.length && b[j]! < a[i]!) j++
    if (j >= b.length || b[j] !== a[i]) out[n++] = a[i]!
  }
  return out.subarray(0, n)
}
