/**
 * Building blocks of the OpenAPI document: TypeBox definitions as components, JSON and HTML
 * media types, error answers, and the headers they carry.
 */
import type { JsonSchema } from './json-schema.js'
import { toDocument } from './json-schema.js'
import { NOT_PRINTABLE } from './patterns.js'

/**
 * A string schema with `pattern` and the printable-ASCII guard every pattern of the schema
 * documents carries (patterns.ts): without it Python's `re` lets `"120\n"` pass `^[0-9]+$`.
 */
export const patterned = (pattern: string, extra: Record<string, unknown> = {}) => ({ type: 'string', pattern, not: { pattern: NOT_PRINTABLE }, ...extra })

/** A reference to a component schema. */
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

/** JSON Schema for OpenAPI components: no `$schema`/`$id`/`$defs`, `$defs` references pointed at components. */
export function toComponents(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toComponents)
  if (typeof node !== 'object' || node === null) return node
  const out: JsonSchema = {}
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema' || key === '$id' || key === '$defs') continue
    out[key] = key === '$ref' ? String(value).replace('#/$defs/', '#/components/schemas/') : toComponents(value)
  }
  return out
}

/**
 * Adds a TypeBox definition to `schemas` under `name`, and each of its named parts (matched by
 * identity) under theirs, referenced rather than repeated.
 */
export function addComponent(schemas: JsonSchema, name: string, root: object, parts: Record<string, object> = {}): void {
  const doc = toDocument({ file: name, title: '', description: '', root, parts, profile: 'strict' })
  const shapes = new Map<string, string>()
  for (const [part, def] of Object.entries((doc.$defs ?? {}) as JsonSchema)) {
    schemas[part] ??= toComponents(def)
    shapes.set(JSON.stringify(toComponents(def)), part)
  }
  const { title: _t, description: _d, ...body } = doc
  const described = root as { title?: string; description?: string }
  schemas[name] = refByShape(toComponents({ title: described.title, description: described.description, ...body }), shapes, true)
}

/**
 * Replaces copies of a named part by a reference to it. TypeBox's `Type.Optional(part)` is a new
 * object, so identity (what toDocument matches on) misses it; its JSON is the part's JSON.
 */
function refByShape(node: unknown, shapes: Map<string, string>, top = false): unknown {
  if (Array.isArray(node)) return node.map((n) => refByShape(n, shapes))
  if (typeof node !== 'object' || node === null) return node
  const part = top ? undefined : shapes.get(JSON.stringify(node))
  if (part !== undefined) return { $ref: `#/components/schemas/${part}` }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, refByShape(value, shapes)]))
}

/** A JSON answer (or request body) with a schema and one example. */
export const json = (description: string, schema: JsonSchema, example?: unknown) => ({
  description,
  content: { 'application/json': example === undefined ? { schema } : { schema, example } },
})

/** Media type of the web view's pages. */
export const HTML = 'text/html'
const page = { schema: { type: 'string', description: 'An HTML page (the web view).' } }

/** The reason phrases the reference service sends, by status (src/service/http/reply.ts). */
const TITLES: Record<string, string> = {
  '400': 'Bad Request',
  '401': 'Unauthorized',
  '403': 'Forbidden',
  '404': 'Not Found',
  '406': 'Not Acceptable',
  '409': 'Conflict',
  '413': 'Payload Too Large',
  '422': 'Unprocessable Content',
  '426': 'Upgrade Required',
  '429': 'Rate-limited',
  '503': 'Service Unavailable',
}

/** An error answer: `{title, description}` in JSON (and an HTML page too when `html`). */
export function errorAnswer(status: string, description: string, example: string, html = false) {
  const content: JsonSchema = { 'application/json': { schema: ref('error'), example: { title: TITLES[status], description: example } } }
  if (html) content[HTML] = page
  return { description, content }
}

/** The 429 answer: reason phrase `Rate-limited`, how long to wait in `x-limited-for` and `retry-after`. */
export function rateLimited(html = false, also = '') {
  return {
    description:
      'Rate limit of the plan reached. The reason phrase is `Rate-limited` (not `Too Many Requests`); wait for ' +
      '`x-limited-for` before the next request.' + also,
    'x-reason-phrase': 'Rate-limited',
    headers: {
      'x-limited-for': { $ref: '#/components/headers/x-limited-for' },
      'retry-after': { $ref: '#/components/headers/retry-after' },
    },
    content: {
      'application/json': {
        schema: ref('error'),
        example: { title: 'Rate-limited', description: 'Rate limit of the anonymous plan reached: wait 734ms (the x-limited-for header) before the next request.' },
      },
      ...(html ? { [HTML]: page } : {}),
    },
  }
}

/**
 * A Go duration as a server writes it, in the ASCII spelling. Kept to what every engine reads
 * alike (`[0-9]`, not `\d`, which Python's `re` extends to other scripts' digits; no non-ASCII
 * character, which mock servers would put in a header Node cannot send). Python's `$` also
 * matches before a final newline, which an HTTP field value cannot carry, so nothing relies on it.
 */
export const X_LIMITED_FOR = '^(?:[0-9]+(?:\\.[0-9]+)?(?:ns|us|ms|s|m|h))+$'

export const HEADERS = {
  'x-limited-for': {
    description:
      'How long to wait before the next request, as a Go duration string such as `734ms`, `1.2s` or `1m2.5s` ' +
      '(units h, m, s, ms, us, ns). The pattern is ASCII only: Go itself writes microseconds with a micro sign ' +
      '(`500µs`, sent as UTF-8), which a server may send for a wait under a millisecond; clients should read ' +
      '`µs` (U+00B5 or U+03BC) as `us`. The reference service rounds waits up to whole milliseconds and never sends it.',
    required: true,
    schema: patterned(X_LIMITED_FOR, { examples: ['734ms'] }),
  },
  'retry-after': {
    description: 'The same wait in whole seconds, rounded up (RFC 9110), for generic HTTP clients.',
    required: true,
    schema: patterned('^[0-9]+$', { examples: ['1'] }),
  },
}

/** A page of the web view as a 200 alternative of a lookup. */
export const pageAlternative = { [HTML]: page }
