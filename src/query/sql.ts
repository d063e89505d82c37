/**
 * Condition tree → a parameterised WHERE clause over the PostgreSQL store's `events` table
 * (migrations/postgres/0001, 0005). Every value of the query goes in a parameter; the SQL text
 * holds only our own names, operators and the field table's member paths, so no query can
 * change what the SQL does. Each test is true or false, never NULL, so `NOT` excludes exactly:
 * a test on a column that may be NULL says `IS NOT NULL AND …` (which keeps it indexable, as
 * COALESCE would not), a test on the JSON is wrapped in COALESCE.
 *
 * Indexed fields read their column (`e.ip`, `e.host_rev`, `e.source`, `e.last_seen`, …); the
 * others read the stored JSON as `x.d` (`l9kit_doc(e.json)`: the document with NUL and unpaired
 * surrogates as U+FFFD, as text.ts compares them), which the caller joins in when `needsDoc`.
 */
import { reverseLabels } from '../names/domain.js'
import { formatTime, MAX_INSTANT, MIN_INSTANT } from '../time/index.js'
import type { Field } from './fields.js'
import { phrasePattern } from './text.js'
import type { Bound, Cond, Test, TestCond } from './types.js'

export interface SqlWhere {
  /** A boolean SQL expression over `e` (an events row) and, when `needsDoc`, `x.d`. */
  text: string
  /** Values for `$1`, `$2`, … in order, all as text (the SQL casts them). */
  params: string[]
  needsDoc: boolean
}

/** Fields kept in a column of their own (indexed, migration 0005), as strings compared exactly. */
const KEYWORD_COLUMNS: Readonly<Record<string, string>> = {
  event_type: 'e.event_type',
  event_source: 'e.source',
  event_fingerprint: 'e.fingerprint',
  port: 'e.port',
  'leak.severity': 'e.severity',
}

const NS_PER_DAY = '86400000000000'
const ZERO_TIME = '0001-01-01T00:00:00Z'

/** The WHERE expression of a condition; parameters numbered from `$1`. */
export function toSql(cond: Cond): SqlWhere {
  const c = new SqlCompiler()
  const text = c.cond(cond)
  return { text, params: c.params, needsDoc: c.needsDoc }
}

class SqlCompiler {
  params: string[] = []
  needsDoc = false

  /** A parameter placeholder for `value`, cast to `type`. */
  private p(value: string, type = 'text'): string {
    this.params.push(value)
    return `$${this.params.length}::${type}`
  }

  cond(cond: Cond): string {
    switch (cond.kind) {
      case 'all':
        return 'TRUE'
      case 'bool': {
        const parts: string[] = []
        for (const c of cond.must) parts.push(this.cond(c))
        if (cond.must.length === 0 && cond.should.length > 0) parts.push(`(${cond.should.map((c) => this.cond(c)).join(' OR ')})`)
        if (cond.not.length > 0) parts.push(`NOT (${cond.not.map((c) => this.cond(c)).join(' OR ')})`)
        return parts.length === 0 ? 'TRUE' : `(${parts.join(' AND ')})`
      }
      case 'test': {
        const parts = cond.fields.map((field) => this.field(cond, field))
        return parts.length === 1 ? parts[0]! : `(${parts.join(' OR ')})`
      }
    }
  }

  private field(cond: TestCond, field: Field): string {
    const test = cond.test
    const column = KEYWORD_COLUMNS[field.name]
    // A range on a numeric keyword (`port:>1000`): decimal values compared as numbers, others in no range.
    if (column !== undefined && field.numeric && test.kind === 'range') {
      return `COALESCE(${this.bounds(`(CASE WHEN ${column} ~ '^[0-9]{1,9}$' THEN ${column}::bigint END)`, test, (b) => this.p(String(b.value), 'bigint'))}, FALSE)`
    }
    if (column !== undefined) return this.string(column, test)
    switch (field.source) {
      case 'address':
        if (test.kind === 'exists') return 'e.ip IS NOT NULL'
        if (test.kind !== 'address') return 'FALSE'
        return `(e.ip IS NOT NULL AND ${test.range.text.includes('/') ? `e.ip <<= ${this.p(test.range.text, 'cidr')}` : `e.ip = ${this.p(test.range.text, 'inet')}`})`
      case 'name': {
        if (test.kind === 'exists') return 'e.host_rev IS NOT NULL'
        if (test.kind !== 'name') break // a regular expression reads the host as written
        const rev = reverseLabels(test.name)
        if (!test.under) return `(e.host_rev IS NOT NULL AND e.host_rev = ${this.p(rev)})`
        return `(e.host_rev IS NOT NULL AND (e.host_rev = ${this.p(rev)} OR (e.host_rev > ${this.p(`${rev}.`)} AND e.host_rev < ${this.p(`${rev}/`)})))`
      }
      case 'first_seen':
        return this.instant('e.first_seen', test)
      case 'last_seen':
        return this.instant('e.last_seen', test)
      case 'age':
        return this.number(`div(greatest(e.last_seen - e.first_seen, 0), ${NS_PER_DAY})`, test, 'numeric')
      case 'country': {
        if (test.kind === 'exists') return '(e.country_code IS NOT NULL OR e.country_name IS NOT NULL)'
        if (test.kind !== 'country') return 'FALSE'
        const parts: string[] = []
        if (test.code !== null) parts.push(`(e.country_code IS NOT NULL AND e.country_code = ${this.p(test.code)})`)
        if (test.names.length > 0) parts.push(`(e.country_name IS NOT NULL AND e.country_name IN (${test.names.map((n) => this.p(n)).join(', ')}))`)
        return parts.length === 0 ? 'FALSE' : `(${parts.join(' OR ')})`
      }
    }
    if (field.name === 'time') return this.instant('e.last_seen', test)
    if (field.name === 'network.asn') return this.number('e.asn', test, 'bigint')
    if (field.type === 'map') return this.map(field, cond.key, test)
    return this.json(field.path, (j) => this.value(field, j, test))
  }

  /** `predicate` over each JSON value at `path` (any of them); '[]' steps into array elements. */
  private json(path: readonly string[], predicate: (json: string) => string, base = 'x.d'): string {
    this.needsDoc = true
    const at = path.indexOf('[]')
    const head = at === -1 ? path : path.slice(0, at)
    const value = head.length === 0 ? base : `${base} #> '{${head.map(member).join(',')}}'`
    if (at === -1) return `COALESCE(${predicate(value)}, FALSE)`
    const element = `a${at}`
    return `EXISTS (SELECT 1 FROM json_array_elements(CASE WHEN json_typeof(${value}) = 'array' THEN ${value} END) AS ${element}(v) WHERE ${this.json(path.slice(at + 1), predicate, `${element}.v`)})`
  }

  /** A test on one JSON value of a field of a plain type. */
  private value(field: Field, j: string, test: Test): string {
    const s = `(${j} #>> '{}')`
    const is = (type: string) => `json_typeof(${j}) = '${type}'`
    switch (field.type) {
      case 'text':
      case 'keyword':
        return `(${is('string')} AND ${this.string(s, test)})`
      case 'dns': {
        if (test.kind === 'regex') return `(${is('string')} AND ${s} ~ ${this.p(test.regex.postgres)})`
        const name = `l9kit_name(${s})`
        if (test.kind === 'exists') return `(${is('string')} AND ${name} <> '')`
        if (test.kind !== 'name') return 'FALSE'
        const exact = `${name} = ${this.p(test.name)}`
        if (!test.under) return `(${is('string')} AND ${exact})`
        return `(${is('string')} AND (${exact} OR right(${name}, ${this.p(String(test.name.length + 1), 'integer')}) = ${this.p(`.${test.name}`)}))`
      }
      case 'integer':
      case 'float':
        return `(${is('number')} AND ${this.number(`${s}::numeric`, test, 'numeric')})`
      case 'bool':
        if (test.kind === 'exists') return `(${is('boolean')} AND ${s} = ${this.p('true')})`
        return test.kind === 'bool' ? `(${is('boolean')} AND ${s} = ${this.p(String(test.value))})` : 'FALSE'
      case 'date': {
        const key = `l9kit_time_key(${s})`
        if (test.kind === 'exists') return `(${is('string')} AND ${key} IS NOT NULL AND ${s} <> ${this.p(ZERO_TIME)})`
        if (test.kind !== 'range') return 'FALSE'
        return `(${is('string')} AND ${this.bounds(`${key} COLLATE "C"`, test, (b) => this.p(timeKey(b.value as bigint)))})`
      }
      default:
        return 'FALSE'
    }
  }

  /** A test on a string expression (sanitised): keyword or text. */
  private string(s: string, test: Test): string {
    switch (test.kind) {
      case 'exists':
        return `${s} <> ''`
      case 'equals':
        return `${s} = ${this.p(test.value)}`
      case 'regex':
        return `${s} ~ ${this.p(test.regex.postgres)}`
      case 'words':
        return `l9kit_lower(${s}) ~ ${this.p(phrasePattern(test.words))}`
      default:
        return 'FALSE'
    }
  }

  private map(field: Field, key: string | undefined, test: Test): string {
    this.needsDoc = true
    const m = `x.d #> '{${field.path.map(member).join(',')}}'`
    const parts = [`json_typeof(h.v) = 'string'`]
    if (key !== undefined) parts.unshift(`l9kit_lower(h.k) = ${this.p(key)}`)
    if (test.kind !== 'exists') parts.push(this.string(`(h.v #>> '{}')`, test))
    return `EXISTS (SELECT 1 FROM json_each(CASE WHEN json_typeof(${m}) = 'object' THEN ${m} END) AS h(k, v) WHERE ${parts.join(' AND ')})`
  }

  private number(expr: string, test: Test, type: string): string {
    if (test.kind === 'exists') return `${expr} <> 0`
    return test.kind === 'range' ? this.bounds(expr, test, (b) => this.p(String(b.value), type)) : 'FALSE'
  }

  /** An instant column (nanoseconds as numeric). */
  private instant(column: string, test: Test): string {
    if (test.kind === 'exists') return `${column} <> ${this.p(ZERO_NS, 'numeric')}`
    return test.kind === 'range' ? this.bounds(column, test, (b) => this.p(String(b.value), 'numeric')) : 'FALSE'
  }

  private bounds(expr: string, test: { lo?: Bound; hi?: Bound }, param: (b: Bound) => string): string {
    if (test.lo && test.hi && test.lo.value === test.hi.value && test.lo.inclusive && test.hi.inclusive) return `${expr} = ${param(test.lo)}`
    const parts: string[] = []
    if (test.lo) parts.push(`${expr} ${test.lo.inclusive ? '>=' : '>'} ${param(test.lo)}`)
    if (test.hi) parts.push(`${expr} ${test.hi.inclusive ? '<=' : '<'} ${param(test.hi)}`)
    return parts.length === 1 ? parts[0]! : `(${parts.join(' AND ')})`
  }
}

const ZERO_NS = '-62135596800000000000'

/** A member name of the field table in a JSON path literal: checked, since it is written into the SQL text. */
function member(name: string): string {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`field table: member '${name}' cannot be written into SQL`)
  return name
}

/**
 * The sort key l9kit_time_key() gives a canonical time: its digits, the fraction padded to
 * nine (23 digits, so keys sort as instants). Instants outside the years 0000–9999 get a key
 * below or above every time.
 */
export function timeKey(instant: bigint): string {
  if (instant < MIN_INSTANT) return ''
  if (instant > MAX_INSTANT) return '~'
  const text = formatTime(instant)
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?Z$/.exec(text)!
  return m.slice(1, 7).join('') + (m[7] ?? '').padEnd(9, '0')
}
