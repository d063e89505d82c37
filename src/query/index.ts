/**
 * The query language of the search API and of `l9kit filter` (docs/search.md): parse (text →
 * tree with positions), check against the field table, print, evaluate against an event, and
 * compile to parameterised SQL or to a plan over the memory store's indexes. The only place
 * that knows the language.
 */
export { parseQuery, printQuery, type ParseOptions } from './query.js'
export { QueryError, type QueryErrorKind } from './errors.js'
export { headerSafe, readingLine, readingOf, type QueryNote, type QueryReading } from './notices.js'
export { MAX_DEPTH, MAX_QUERY_LENGTH, MAX_TERMS } from './parse.js'
export { MAX_NESTED_REPEAT, MAX_PATTERN, MAX_REPEAT, MAX_SIZE } from './regex.js'
export { eventWork, PARSE_COST, queryCost, type QueryCost, TYPICAL_EVENT_BYTES } from './cost.js'
export { matches, holds, countryOf, nameForm, type Seen } from './evaluate.js'
export { membersRead } from './reads.js'
export { ALIASES, BARE_FIELDS, FIELDS, type Field, type FieldType, fieldNames, resolveField } from './fields.js'
export { countryCode, countryCodes, countryNames } from './countries.js'
export { asciiLower, asciiUpper, storable, wordsOf } from './text.js'
export { eventAddress, parseRange, type AddressRange } from './address.js'
export type { Bound, Cond, Query, Scope, Test, TestCond } from './types.js'
export type { Clause, Node, Occur, Op, Span, TermNode } from './syntax.js'
