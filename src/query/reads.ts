/**
 * Which members of an event the evaluator (evaluate.ts) reads for a query: a document that
 * holds only those members (as the full one holds them) gets the same answer from matches()
 * as the full document. `l9kit filter` uses it to parse only those members of canonical text
 * (cli/commands/filter-canonical.ts). Keep it in step with testField() in evaluate.ts.
 */
import type { Field } from './fields.js'
import type { Cond, Query } from './types.js'

/** The top-level members a field's values come from (evaluate.ts, testField). */
function fieldReads(field: Field): readonly string[] {
  switch (field.source) {
    case 'address':
      return ['ip', 'host']
    case 'name':
      return ['host']
    case 'first_seen':
    case 'last_seen':
    case 'age':
      return ['time'] // offline (no `seen`), both are the event's own time
    case 'country':
      return ['geoip']
    default:
      return field.path.length === 0 ? [] : [field.path[0]!]
  }
}

function condReads(cond: Cond, into: Set<string>): void {
  switch (cond.kind) {
    case 'all':
      return
    case 'bool':
      for (const c of [...cond.must, ...cond.should, ...cond.not]) condReads(c, into)
      return
    case 'test':
      for (const field of cond.fields) for (const name of fieldReads(field)) into.add(name)
  }
}

/** The top-level members matches(query, event) reads (without `seen`), in no particular order. */
export function membersRead(query: Query): string[] {
  const into = new Set<string>()
  if (query.scope !== 'any') into.add('event_type')
  condReads(query.cond, into)
  return [...into]
}
