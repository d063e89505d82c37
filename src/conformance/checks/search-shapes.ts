/**
 * The shapes in which LeakIX's own clients send a query (test/interop runs the real ones): the
 * Python client form-encodes `q` (`requests`: a space as `+`, `+` as `%2B`) after `scope`, the Go
 * client's url.QueryEscape does the same; query classes and dorks write `+ term` with a space
 * after the sign and the aggregated index's `events.` names. search-results-match sends each
 * generated query in these shapes too, and a server must answer them as the canonical text.
 */
import { printQuery } from '../../query/query.js'
import type { Clause, Node } from '../../query/syntax.js'
import type { Query } from '../../query/types.js'

/** `application/x-www-form-urlencoded`, as Python's `requests` and Go's url.QueryEscape write a value. */
export const formValue = (text: string) => encodeURIComponent(text).replace(/%20/g, '+').replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)

/** `node` with every field name written as the aggregated index's `events.NAME`. */
function withEvents(node: Node): Node {
  if (node.kind === 'group') return { ...node, clauses: node.clauses.map((c) => ({ ...c, node: withEvents(c.node) })) }
  if (node.kind === 'term' && node.field !== null) return { ...node, field: `events.${node.field}` }
  return node
}

/** The query's text in each client shape, by name; the same reading as `query` (scope aside). */
export function clientShapes(query: Query): { name: string; path: (scope: string, page: number) => string }[] {
  const form = (q: string) => (scope: string, page: number) => `/search?scope=${formValue(scope)}&q=${formValue(q)}&page=${page}`
  const clauses = query.clauses
  const spaced = clauses.map((c: Clause) => `${c.occur === 'must' ? '+ ' : c.occur === 'not' ? '- ' : ''}${printQuery({ clauses: [{ ...c, occur: 'should' }] })}`).join(' ')
  const events = printQuery({ clauses: clauses.map((c) => ({ ...c, node: withEvents(c.node) })) })
  return [
    { name: 'form-encoded, as the Python and Go clients send it', path: form(query.text) },
    { name: 'with a space after each sign', path: form(spaced) },
    { name: 'with the aggregated index\'s `events.` field names', path: form(events) },
  ]
}
