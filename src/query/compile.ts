/**
 * Syntax tree → condition tree: each term's field looked up in the field table, its value
 * read as the field's type says (addresses, dates, integers, names, regular expressions), and
 * refused with a QueryError that points at the term when it cannot be. The evaluator, the SQL
 * compiler and the memory planner all read the condition tree, never the text.
 */
import { canonicalDomain } from '../names/domain.js'
import { parseTime } from '../time/index.js'
import { parseRange } from './address.js'
import { countryCode, countryNames } from './countries.js'
import { QueryError, type QueryErrorKind } from './errors.js'
import { bareFields, closestFields, EVENTS_PREFIX, type Field, resolveField } from './fields.js'
import { parseRegex, RegexProblem } from './regex.js'
import type { Clause, Span, TermNode } from './syntax.js'
import { asciiLower, asciiUpper, wordsOf } from './text.js'
import type { Cond, Scope, Test } from './types.js'

const NS_PER_DAY = 86_400_000_000_000n
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/

/** The condition of a query's clauses in `scope`; throws QueryError. */
export function compileClauses(clauses: readonly Clause[], scope: Scope, text: string): Cond {
  return new Compiler(scope, text).clauses(clauses)
}

class Compiler {
  constructor(
    private readonly scope: Scope,
    private readonly text: string,
  ) {}

  private fail(kind: QueryErrorKind, reason: string, span: Span): never {
    throw new QueryError(kind, reason, span, this.text)
  }

  clauses(clauses: readonly Clause[]): Cond {
    if (clauses.length === 0) return { kind: 'all' }
    const out: Cond & { kind: 'bool' } = { kind: 'bool', must: [], should: [], not: [] }
    for (const clause of clauses) {
      const node = clause.node
      const cond = node.kind === 'all' ? ({ kind: 'all' } as const) : node.kind === 'group' ? this.clauses(node.clauses) : this.term(node)
      out[clause.occur].push(cond)
    }
    return out
  }

  private term(node: TermNode): Cond {
    if (node.field === null) {
      const words = wordsOf(node.value)
      if (words.length === 0) this.fail('bad_value', 'this holds no word to search for (words are letters and digits)', node.span)
      return { kind: 'test', fields: this.bare(), test: { kind: 'words', words }, span: node.span }
    }
    const resolved = resolveField(node.field)
    const fieldSpan = { offset: node.span.offset, length: node.field.length }
    if (resolved === undefined) {
      const instead = AGGREGATE_MEMBERS[node.field]
      if (instead !== undefined) this.fail('unknown_field', `\`${node.field}\` is a member of LeakIX's aggregated index, which l9kit does not keep: ${instead}`, fieldSpan)
      const events = node.field.startsWith(EVENTS_PREFIX)
      const name = events ? node.field.slice(EVENTS_PREFIX.length) : node.field
      const close = closestFields(name)
      const hint = close.length === 0 ? ' (docs/search.md lists the fields)' : `; did you mean ${close.map((c) => `\`${c}\``).join(' or ')}?`
      const prefix = events ? ` (\`${EVENTS_PREFIX}NAME\` is our field NAME)` : ''
      this.fail('unknown_field', `there is no field \`${name}\`${prefix}${hint}`, fieldSpan)
    }
    const { field, key } = resolved
    if (field.leakOnly && this.scope === 'service') {
      this.fail('wrong_scope', `\`${field.name}\` is a field of leaks: search with scope leak, or leave it out`, fieldSpan)
    }
    // `http.title:` (no value): LeakIX's engine sends Elasticsearch an empty match, which finds nothing.
    if (node.value === '' && !node.quoted && node.op === ':') return NOTHING
    return { kind: 'test', fields: [field], key: key === undefined ? undefined : asciiLower(key), test: this.test(field, node), span: node.span }
  }

  /** Bare words search the text fields, those of leaks only in leak (or any) scope. */
  private bare(): Field[] {
    return bareFields().filter((field) => !field.leakOnly || this.scope !== 'service')
  }

  private test(field: Field, node: TermNode): Test {
    const { op, value } = node
    const span = node.valueSpan
    if (op === ':' && value === '*' && !node.quoted) return { kind: 'exists' }
    const type = field.type === 'map' ? 'text' : field.type
    if (op === ':~') {
      if (type !== 'text' && type !== 'keyword' && type !== 'dns') this.fail('bad_operator', `\`${field.name}\` is ${article(field.type)} field: \`:~\` (a regular expression) applies to text, keyword, dns and header fields`, node.span)
      try {
        return { kind: 'regex', regex: parseRegex(value) }
      } catch (error) {
        if (!(error instanceof RegexProblem)) throw error
        const at = Math.min(node.valueSpan.length, [...value].slice(0, error.at).join('').length)
        this.fail(error.kind, `${error.message} (regular expressions: docs/search.md)`, { offset: node.valueSpan.offset + at, length: Math.max(1, node.valueSpan.length - at) })
      }
    }
    const range = op === ':>' || op === ':<' || op === ':>=' || op === ':<='
    if (range && field.numeric) return { kind: 'range', ...bounds(op, this.integer(value, span)) }
    if (range && type !== 'integer' && type !== 'float' && type !== 'date') {
      const cidr = type === 'ip' ? ' (for a range of addresses give a CIDR block: `ip:192.0.2.0/24`)' : ''
      this.fail('bad_operator', `\`${field.name}\` is ${article(field.type)} field: ranges (\`${op}\`) apply to integer, number and date fields, and to \`port\`${cidr}`, node.span)
    }
    switch (type) {
      case 'text':
        if (op === ':=') return { kind: 'equals', value }
        return { kind: 'words', words: this.words(value, span) }
      case 'keyword':
        return { kind: 'equals', value }
      case 'bool': {
        const lower = value.toLowerCase()
        if (lower !== 'true' && lower !== 'false') this.fail('bad_bool', `\`${field.name}\` is true or false`, span)
        return { kind: 'bool', value: lower === 'true' }
      }
      case 'integer':
        return { kind: 'range', ...bounds(op, this.integer(value, span)) }
      case 'float':
        return { kind: 'range', ...bounds(op, this.float(value, span)) }
      case 'date':
        return { kind: 'range', ...this.date(op, value, span) }
      case 'ip': {
        const parsed = parseRange(value)
        if (parsed === null) this.fail('bad_address', `\`${value}\` is not an IP address or a CIDR range such as 192.0.2.0/24 or 2001:db8::/32`, span)
        return { kind: 'address', range: parsed }
      }
      case 'dns': {
        // `host:.be` (the Python client's example): a leading dot asks for the names under `be`.
        const name = canonicalDomain(value.startsWith('.') && op !== ':=' ? value.slice(1) : value)
        if (name === null) this.fail('bad_name', `\`${value}\` is not a domain name (for patterns use \`${field.name}:~"…"\`)`, span)
        return { kind: 'name', name, under: op !== ':=' }
      }
      case 'country': {
        if (value === '') this.fail('bad_value', 'a country is an ISO 3166 code (DE) or a name (Germany)', node.span)
        // Two letters are a code, known or not; a name is looked up, and matched as written when unknown.
        const code = /^[A-Za-z]{2}$/.test(value) ? asciiUpper(value) : (countryCode(value) ?? null)
        return { kind: 'country', code, names: code === null ? [asciiLower(value)] : [...countryNames(code)] }
      }
    }
  }

  private words(value: string, span: Span): string[] {
    const words = wordsOf(value)
    if (words.length === 0) this.fail('bad_value', `\`${value}\` holds no word to search for (words are letters and digits; \`:=\` compares whole values)`, span)
    return words
  }

  private integer(value: string, span: Span): number {
    const n = Number(value)
    if (!/^-?\d{1,16}$/.test(value) || !Number.isSafeInteger(n)) this.fail('bad_integer', `\`${value}\` is not an integer (at most 2^53 - 1 in size)`, span)
    return n
  }

  private float(value: string, span: Span): number {
    if (!/^-?\d{1,20}(\.\d{1,20})?([eE][+-]?\d{1,3})?$/.test(value) || !Number.isFinite(Number(value))) this.fail('bad_number', `\`${value}\` is not a number such as 48.85 or -2.3`, span)
    return Number(value) === 0 ? 0 : Number(value)
  }

  /** A date alone is its midnight UTC (`:` on it: the whole day); a date-time needs its offset. */
  private date(op: string, value: string, span: Span): { lo?: Bound; hi?: Bound } {
    const day = DATE_ONLY.exec(value)
    const parsed = parseTime(day ? `${value}T00:00:00Z` : value, { lenient: true })
    if (!parsed.ok) this.fail('bad_date', `\`${value}\` is not a date (2026-11-24, midnight UTC) or an RFC 3339 date-time (2026-11-24T10:00:00Z): ${parsed.reason}`, span)
    if (day && op === ':') return { lo: { value: parsed.value, inclusive: true }, hi: { value: parsed.value + NS_PER_DAY, inclusive: false } }
    return bounds(op, parsed.value)
  }
}

interface Bound {
  value: number | bigint
  inclusive: boolean
}

/** The bounds an operator puts on a value: `:`/`:=` both inclusive at the value. */
function bounds(op: string, value: number | bigint): { lo?: Bound; hi?: Bound } {
  switch (op) {
    case ':>':
      return { lo: { value, inclusive: false } }
    case ':>=':
      return { lo: { value, inclusive: true } }
    case ':<':
      return { hi: { value, inclusive: false } }
    case ':<=':
      return { hi: { value, inclusive: true } }
    default:
      return { lo: { value, inclusive: true }, hi: { value, inclusive: true } }
  }
}

/** No event: `bool` with only `not: [all]` (every consumer reads it as false, the planner as no candidates). */
const NOTHING: Cond = { kind: 'bool', must: [], should: [], not: [{ kind: 'all' }] }

/** Members of LeakIX's aggregated index (one document per resource) and what to search instead. */
const AGGREGATE_MEMBERS: Readonly<Record<string, string>> = {
  open_ports: 'search `port` (each event has one)',
  plugins: 'search `plugin` (each event has one)',
  fingerprints: 'search `l9fp` (`event_fingerprint`)',
  leak_count: 'there is no counterpart; the bulk export (GET /bulk/search) gives each resource\'s count',
  leak_event_count: 'there is no counterpart; the bulk export (GET /bulk/search) gives each resource\'s count',
  resource_id: 'search `ip` or `host` (a resource is an address or a name)',
  fresh: 'there is no counterpart; search `update_date:>…` for recent findings',
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`)
