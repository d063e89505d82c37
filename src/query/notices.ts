/**
 * Notes on queries that parse but probably do not say what their author meant: words that look
 * like another language's operators (`NOT`, `AND`, `OR`, `!port:443`, `port=443`), lists in a
 * value (`port:443,80`), a field with no value (`http.title:`). LeakIX's language has no such
 * operators, so the query keeps LeakIX's meaning; these notes say how it was read and what to
 * write instead. `l9kit filter` prints them as a warning line, the search route as
 * `x-query-notice` headers, the web view above its results (docs/search.md, "Coming from
 * Shodan or Lucene").
 */
import { resolveField } from './fields.js'
import { printClauses } from './print.js'
import type { Clause, TermNode } from './syntax.js'

export interface QueryNote {
  /** The term as written. */
  term: string
  /** 0-based offset of the term, in UTF-16 units. */
  offset: number
  /** What the term was read as and what to write instead. */
  message: string
}

export interface QueryReading {
  /** One note per suspicious term, in the order written (none: nothing to say). */
  notes: QueryNote[]
  /** How the top level was read: required, excluded and optional terms. */
  readAs: string
}

const OPERATOR_WORDS = new Set(['AND', 'OR', 'NOT', 'TO', '&&', '||'])

/** The notes on a parsed query (its syntax tree and text). */
export function readingOf(query: { clauses: readonly Clause[]; text: string }): QueryReading {
  const notes: QueryNote[] = []
  const visit = (clauses: readonly Clause[]) => {
    for (const clause of clauses) {
      const node = clause.node
      if (node.kind === 'group') visit(node.clauses)
      else if (node.kind === 'term') {
        const message = noteOn(node)
        if (message !== undefined) notes.push({ term: query.text.slice(node.span.offset, node.span.offset + node.span.length), offset: node.span.offset, message })
      }
    }
  }
  visit(query.clauses)
  return { notes, readAs: notes.length === 0 ? '' : describe(query.clauses) }
}

function noteOn(node: TermNode): string | undefined {
  if (node.field === null) {
    if (node.quoted) return undefined
    const word = node.value
    if (OPERATOR_WORDS.has(word)) return `\`${word}\` is searched as a word: LeakIX's language has no AND, OR, NOT or TO; write \`+term\` to require a term, \`-term\` to exclude one, and no sign for "any of"`
    if (word.startsWith('!') && word.length > 1) return `\`${word}\` is searched as words; to exclude, write \`-${word.slice(1)}\``
    const eq = /^([A-Za-z_][\w.-]*)(=|==|!=)(.+)$/.exec(word)
    if (eq && resolveField(eq[1]!.toLowerCase()) !== undefined) {
      const sign = eq[2] === '!=' ? '-' : ''
      return `\`${word}\` is searched as words; a field takes a colon: \`${sign}${eq[1]}:${eq[3]}\``
    }
    return undefined
  }
  if (node.value === '' && !node.quoted && node.op === ':') {
    return `\`${node.field}:\` has no value and matches no event (as LeakIX reads it); \`${node.field}:*\` finds events that have one`
  }
  if (!node.quoted && /^[[{]/.test(node.value)) {
    return `\`${node.field}:${node.value}\` is not a range: LeakIX's language writes one as \`+${node.field}:>=LOW +${node.field}:<=HIGH\``
  }
  const resolved = resolveField(node.field)
  const type = resolved?.field.type
  if (!node.quoted && node.op !== ':~' && type !== undefined && type !== 'text' && type !== 'map' && /^[^,]+(,[^,]+)+$/.test(node.value)) {
    const alternatives = node.value.split(',').map((v) => `${node.field}${node.op}${v}`)
    return `\`${node.field}${node.op}${node.value}\` is one value, commas included; for any of them write \`(${alternatives.join(' ')})\` (\`+(…)\` to require one)`
  }
  return undefined
}

/** "required a, b; excluded c; at least one of d, e" for the top-level clauses. */
function describe(clauses: readonly Clause[]): string {
  const of = (occur: Clause['occur']) =>
    clauses
      .filter((c) => c.occur === occur)
      .map((c) => `\`${printClauses([{ ...c, occur: 'should' }])}\``)
      .join(', ')
  const parts: string[] = []
  const must = of('must')
  const not = of('not')
  const should = of('should')
  if (must !== '') parts.push(`required ${must}`)
  if (not !== '') parts.push(`excluded ${not}`)
  if (should !== '') parts.push(must === '' ? (clauses.filter((c) => c.occur === 'should').length === 1 ? `required ${should}` : `at least one of ${should}`) : `optional ${should} (they do not narrow the results)`)
  return parts.join('; ')
}

/** The notes as one line: "the query was read as …: note; note". Empty when there are none. */
export function readingLine(reading: QueryReading): string {
  if (reading.notes.length === 0) return ''
  return `the query was read as ${reading.readAs}: ${reading.notes.map((n) => `${n.message} (position ${n.offset + 1})`).join('; ')}`
}

/** A note as an HTTP header value: characters outside printable ASCII written as `\uXXXX`. */
export const headerSafe = (text: string): string => text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
