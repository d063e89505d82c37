/**
 * What a query costs, known before it runs (docs/search.md, "What a query costs"): a number of
 * work units per event the evaluator reads, from its terms (a word or phrase searched in long
 * text, a regular expression weighted by its size once repetitions are counted out, a simple
 * comparison) and how many values each term reads (every bare text field, every header, every
 * element of a list). A unit is about a microsecond of one core of the machine the defaults were
 * set on (2 cores, 2026); the figures were measured on events of about 2.7 KB (bench events).
 *
 * Two uses: a plan's `max_query_cost` refuses a query whose cost per event is above it before
 * anything is read (422), and evaluation stops once the work it has done (eventWork per event
 * read: reading it, plus the query's cost, scaled by the event's size) passes the request's
 * budget. What an index answers is never evaluated: `narrowed` tells whether one narrows the
 * events read at all.
 */
import type { Field } from './fields.js'
import type { Span } from './syntax.js'
import type { Cond, Query, TestCond } from './types.js'

/** Units to read (parse) one event of TYPICAL_EVENT_BYTES, whatever the query. */
export const PARSE_COST = 10
/** The event size the units are set for; larger events cost proportionally more (eventWork). */
export const TYPICAL_EVENT_BYTES = 2048
/** The least share of a typical event's cost a small event is counted at. */
const MIN_SCALE = 0.25

/** A word or phrase looked for in one long text value (a summary, a title, a banner). */
const WORDS = 2
/** A regular expression over one long text value: a fixed part and this much per character of its size. */
const REGEX_LONG = 1.2
/** …over one short value (keywords, names): about a tenth of a long value's characters. */
const REGEX_SHORT = 0.1
/** Any other test of one value (equality, range, address, name, bool, presence). */
const SIMPLE = 1
/** Values read for a term on a header map (any header, or one by name: every entry is looked at). */
const MAP_VALUES = 8
/** Values read for a term on a list field (each element). */
const LIST_VALUES = 4

/** Fields the stores' indexes answer for these kinds of tests (both stores: docs/search.md, "The stores"). */
const INDEXED = new Set(['ip', 'host', 'event_source', 'port', 'event_fingerprint', 'leak.severity', 'country', 'time', 'update_date'])
const INDEXED_TESTS = new Set(['address', 'name', 'equals', 'country', 'range'])

export interface QueryCost {
  /** Units per event evaluated, reading it aside (a plan's `max_query_cost` caps it); 0 for `*`. */
  perEvent: number
  /** The term that costs the most per event (absent for `*`): named in a refusal. */
  costliest?: { span: Span; cost: number }
  /** Whether an index narrows the events read (a required term an index answers; or every optional one, with none required). */
  narrowed: boolean
}

/** The cost of `query` per event it reads. */
export function queryCost(query: Pick<Query, 'cond'>): QueryCost {
  const out: QueryCost = { perEvent: 0, narrowed: narrows(query.cond) }
  visit(query.cond, (test) => {
    const cost = testCost(test)
    out.perEvent += cost
    if (out.costliest === undefined || cost > out.costliest.cost) out.costliest = { span: test.span, cost }
  })
  out.perEvent = round(out.perEvent)
  if (out.costliest !== undefined) out.costliest.cost = round(out.costliest.cost)
  return out
}

/** The work of evaluating one event of `bytes` bytes with a query of cost `perEvent` per event. */
export function eventWork(perEvent: number, bytes: number): number {
  return (PARSE_COST + perEvent) * Math.max(MIN_SCALE, bytes / TYPICAL_EVENT_BYTES)
}

function visit(cond: Cond, each: (test: TestCond) => void): void {
  if (cond.kind === 'test') return each(cond)
  if (cond.kind === 'bool') for (const c of [...cond.must, ...cond.should, ...cond.not]) visit(c, each)
}

/** Every field the test reads, each value it reads there, at the price of its kind of test. */
function testCost(test: TestCond): number {
  let cost = 0
  for (const field of test.fields) cost += valuesRead(field) * valueCost(test, field)
  return cost
}

function valuesRead(field: Field): number {
  if (field.type === 'map') return MAP_VALUES
  return field.path.includes('[]') ? LIST_VALUES : 1
}

function valueCost(test: TestCond, field: Field): number {
  const long = field.type === 'text' || field.type === 'map'
  switch (test.test.kind) {
    case 'words':
      return WORDS
    case 'regex':
      return long ? WORDS + test.test.regex.size * REGEX_LONG : SIMPLE + test.test.regex.size * REGEX_SHORT
    default:
      return SIMPLE
  }
}

function narrows(cond: Cond): boolean {
  switch (cond.kind) {
    case 'all':
      return false
    case 'test':
      return cond.fields.length === 1 && INDEXED.has(cond.fields[0]!.name) && INDEXED_TESTS.has(cond.test.kind)
    case 'bool':
      if (cond.must.some(narrows)) return true
      return cond.must.length === 0 && cond.should.length > 0 && cond.should.every(narrows)
  }
}

const round = (n: number) => Math.round(n * 10) / 10
