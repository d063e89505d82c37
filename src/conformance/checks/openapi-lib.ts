/**
 * Our OpenAPI document (schema/openapi.json, shipped with the package) as the generic checks
 * read it: its operations, each path with concrete values for its parameters, the identity an
 * operation is sent as, and which operation an answer belongs to.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { packageRoot } from '../../service/package-root.js'
import type { Identity, SuiteContext } from '../context.js'
import { PREFLIGHT_IP } from '../discover.js'

export type Obj = Record<string, unknown>

export interface Parameter {
  name: string
  in: 'path' | 'query' | 'header' | 'cookie'
  required?: boolean
  schema?: Obj
}

export interface Operation {
  /** The path template (`/host/{ip}`). */
  path: string
  /** Upper case (`GET`). */
  method: string
  parameters: Parameter[]
  /** Needs a key (no `{}` alternative in its security), `admin`: the admin token, `none`: a key is optional. */
  auth: 'key' | 'admin' | 'none'
  responses: Record<string, Obj>
}

let loaded: { doc: Obj; operations: Operation[] } | undefined

/** The document and its operations (read once). */
export function openapi(): { doc: Obj; operations: Operation[] } {
  if (loaded) return loaded
  const doc = JSON.parse(readFileSync(join(packageRoot(), 'schema', 'openapi.json'), 'utf8')) as Obj
  const operations: Operation[] = []
  for (const [path, item] of Object.entries(doc.paths as Record<string, Obj>)) {
    const shared = (item.parameters as Parameter[] | undefined) ?? []
    for (const [method, op] of Object.entries(item)) {
      if (method === 'parameters' || typeof op !== 'object' || op === null) continue
      const o = op as Obj
      const security = (o.security ?? doc.security ?? []) as Obj[]
      const optional = security.some((s) => Object.keys(s).length === 0)
      const auth = optional ? 'none' : security.some((s) => 'adminToken' in s) ? 'admin' : 'key'
      const parameters = [...shared, ...((o.parameters as Parameter[] | undefined) ?? [])].map((p) => resolve(doc, p as unknown as Obj) as unknown as Parameter)
      operations.push({ path, method: method.toUpperCase(), parameters, auth, responses: (o.responses ?? {}) as Record<string, Obj> })
    }
  }
  loaded = { doc, operations }
  return loaded
}

/** A `$ref` inside the document, followed (one level at a time, until none). */
export function resolve(doc: Obj, value: Obj): Obj {
  let v = value
  while (typeof v.$ref === 'string' && v.$ref.startsWith('#/')) {
    v = v.$ref
      .slice(2)
      .split('/')
      .reduce<unknown>((o, k) => (o as Obj)?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc) as Obj
  }
  return v
}

/** The methods the document lists for a path template. */
export function documentedMethods(path: string): string[] {
  return openapi().operations.filter((o) => o.path === path).map((o) => o.method)
}

/** Paths whose every operation only reads (GET): the suite may probe them without --allow-writes. */
export function readOnlyPath(path: string): boolean {
  return documentedMethods(path).every((m) => m === 'GET')
}

/** A value for each path parameter the suite may send: known names, else ones no server holds. */
export function pathValue(ctx: SuiteContext, name: string): string {
  switch (name) {
    case 'ip':
      return ctx.known.ips[0] ?? PREFLIGHT_IP
    case 'domain':
      return ctx.known.domains[0] ?? 'l9kit-unknown.test'
    case 'name':
      return 'L9kitUnknownSamplePlugin'
    case 'id':
      return 'l9kitconform0'
    case 'delivery':
      return 'msg_l9kitconform0'
    default:
      return 'l9kit-conform'
  }
}

/**
 * The path of an operation with its parameters filled: `values` first, else pathValue
 * (`{id}` gets the prefix its pattern asks for: `res_`, `hook_`). Values are percent-encoded.
 */
export function fillPath(ctx: SuiteContext, op: Operation, values: Record<string, string> = {}): string {
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (values[name] !== undefined) return values[name]!
    const pattern = op.parameters.find((p) => p.name === name)?.schema?.pattern
    const prefix = typeof pattern === 'string' ? (/^\^([a-z]+_)/.exec(pattern)?.[1] ?? '') : ''
    const value = pathValue(ctx, name)
    return encodeURIComponent(value.startsWith(prefix) ? value : prefix + value)
  })
}

/** Query parameters an operation requires, with a valid value each. */
export function requiredQuery(op: Operation): Record<string, string> {
  const out: Record<string, string> = {}
  for (const p of op.parameters) {
    if (p.in !== 'query' || !p.required) continue
    const s = p.schema ?? {}
    out[p.name] = Array.isArray(s.enum) ? String(s.enum[0]) : s.type === 'integer' ? String(s.minimum ?? 0) : `l9kit-conform:${p.name}`
  }
  return out
}

export const withQuery = (path: string, query: Record<string, string>) => {
  const text = new URLSearchParams(query).toString()
  return text === '' ? path : `${path}?${text}`
}

/** Who an operation is sent as: the pro key when it needs a key and there is one, else the user's key. */
export function identityFor(ctx: SuiteContext, op: Operation): Identity | 'admin' {
  if (op.auth === 'admin') return 'admin'
  if (op.auth === 'key' && ctx.options.proKey !== undefined) return 'pro'
  return 'key'
}

/** The operation an answer belongs to (its method and path matched against the templates), if any. */
export function operationOf(method: string, path: string): Operation | undefined {
  const bare = path.split('?', 1)[0]!
  return openapi().operations.find((o) => o.method === method && templateRegex(o.path).test(bare))
}

const regexes = new Map<string, RegExp>()
function templateRegex(template: string): RegExp {
  let r = regexes.get(template)
  if (!r) {
    r = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`)
    regexes.set(template, r)
  }
  return r
}

/** The response object an operation documents for a status (exact, then `4XX`, then `default`), resolved. */
export function documentedResponse(op: Operation, status: number): Obj | undefined {
  const r = op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`] ?? op.responses.default
  return r === undefined ? undefined : resolve(openapi().doc, r)
}
