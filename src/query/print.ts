/**
 * Syntax tree → canonical query text: one space between clauses, field names in lower case,
 * quotes kept where they were (a quoted `*` is a star, an unquoted one means "any value") and
 * escaped one way (`\"`, `\\`). Parsing the printed text gives the same tree, positions aside.
 */
import type { Clause, Node } from './syntax.js'

/** The canonical text of a query's clauses ('' for none: the empty query, every event). */
export function printClauses(clauses: readonly Clause[]): string {
  return clauses.map(printClause).join(' ')
}

function printClause(clause: Clause): string {
  const sign = clause.occur === 'must' ? '+' : clause.occur === 'not' ? '-' : ''
  return sign + printNode(clause.node)
}

function printNode(node: Node): string {
  switch (node.kind) {
    case 'all':
      return '*'
    case 'group':
      return `(${node.clauses.map(printClause).join(' ')})`
    case 'term': {
      const value = node.quoted ? quote(node.value) : node.value
      return node.field === null ? value : `${node.field}${node.op}${value}`
    }
  }
}

/** A value in double quotes, with `"` and `\` escaped. */
export const quote = (value: string) => `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`
