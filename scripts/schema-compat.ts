/**
 * The breaking-change guard of the published schema documents: compares a released document
 * with the current one and lists what could make a document valid under the released schema
 * invalid under the current one (or take away a member a consumer relies on), the way OCSF
 * guards its schema between versions. Annotations (title, description, examples) are ignored.
 */
import { type JsonSchema, matchesPrintableOnly, NOT_PRINTABLE } from '../src/schema/index.js'

type Node = JsonSchema

/** Keywords that only annotate: changing them changes no verdict. */
const ANNOTATIONS = new Set(['title', 'description', '$comment', 'examples', '$id', 'deprecated'])
/** Lower bounds (raising one narrows) and upper bounds (lowering one narrows). */
const LOWER = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties']
const UPPER = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties']

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The JSON types a node admits; `number` includes `integer`. Undefined when it does not say. */
function types(node: Node): Set<string> | undefined {
  if (node.type === undefined) return undefined
  const list = Array.isArray(node.type) ? (node.type as string[]) : [String(node.type)]
  return new Set(list)
}

/** Breaking differences between one released node and its current counterpart, at `path`. */
function compareNode(old: Node, now: Node, path: string, out: string[]): void {
  const oldAlts = Array.isArray(old.anyOf) ? (old.anyOf as Node[]) : undefined
  const nowAlts = Array.isArray(now.anyOf) ? (now.anyOf as Node[]) : undefined
  if (oldAlts || nowAlts) {
    // Every alternative the released schema allowed must still be allowed by some current one.
    for (const [i, alt] of (oldAlts ?? [old]).entries()) {
      const candidates = nowAlts ?? [now]
      const fits = candidates.some((c) => {
        const found: string[] = []
        compareNode(alt, c, path, found)
        return found.length === 0
      })
      if (!fits) {
        // Report the difference against the closest candidate (same position, else the first).
        const closest = candidates[Math.min(i, candidates.length - 1)]!
        const found: string[] = []
        compareNode(alt, closest, oldAlts ? `${path}/anyOf/${i}` : path, found)
        out.push(...(found.length ? found : [`${path}: an alternative the released schema allowed is gone`]))
      }
    }
    return
  }
  if (old.$ref !== now.$ref) {
    if (old.$ref !== undefined) out.push(`${path}: reference changed from ${String(old.$ref)} to ${String(now.$ref ?? 'an inline schema')}`)
    else out.push(`${path}: now a reference to ${String(now.$ref)}`)
    return
  }
  const oldTypes = types(old)
  const nowTypes = types(now)
  if (nowTypes && !oldTypes) out.push(`${path}: type restricted to ${[...nowTypes].join(', ')}`)
  if (oldTypes && nowTypes) {
    for (const t of oldTypes) {
      if (!nowTypes.has(t) && !(t === 'integer' && nowTypes.has('number'))) out.push(`${path}: type narrowed, ${t} no longer allowed`)
    }
  }
  compareKeywords(old, now, path, out)
  compareObject(old, now, path, out)
  if (isNode(old.items) && isNode(now.items)) compareNode(old.items, now.items, `${path}/items`, out)
  else if (isNode(now.items) && old.items === undefined) out.push(`${path}/items: item schema added`)
}

function compareKeywords(old: Node, now: Node, path: string, out: string[]): void {
  for (const key of LOWER) {
    const [a, b] = [old[key] as number | undefined, now[key] as number | undefined]
    if (b !== undefined && (a === undefined || b > a)) out.push(`${path}: ${key} raised to ${b}${a === undefined ? '' : ` from ${a}`}`)
  }
  for (const key of UPPER) {
    const [a, b] = [old[key] as number | undefined, now[key] as number | undefined]
    if (b !== undefined && (a === undefined || b < a)) out.push(`${path}: ${key} lowered to ${b}${a === undefined ? '' : ` from ${a}`}`)
  }
  // A pattern or format cannot be proven to accept a superset, so any new or changed one counts,
  // except a pattern that differs only in writing `[0-9]` for `\d` (the same set in ECMA-262).
  for (const key of ['pattern', 'format']) {
    const same = key === 'pattern' ? samePattern(old[key], now[key]) : now[key] === old[key]
    if (now[key] !== undefined && !same) {
      out.push(`${path}: ${key} ${old[key] === undefined ? 'added' : 'changed'} (${JSON.stringify(now[key])}; may be tighter)`)
    }
  }
  // So does a new or changed `not`, unless it is the printable-ASCII guard beside a pattern that
  // only matches printable ASCII anyway (src/schema/patterns.ts).
  if (now.not !== undefined && JSON.stringify(now.not) !== JSON.stringify(old.not) && !impliedGuard(now)) {
    out.push(`${path}: not ${old.not === undefined ? 'added' : 'changed'} (${JSON.stringify(now.not)}; may be tighter)`)
  }
  if (now.const !== undefined && JSON.stringify(now.const) !== JSON.stringify(old.const)) out.push(`${path}: const ${JSON.stringify(now.const)} added`)
  if (Array.isArray(now.enum)) {
    const allowed = new Set((now.enum as unknown[]).map((v) => JSON.stringify(v)))
    if (!Array.isArray(old.enum)) out.push(`${path}: enum added`)
    else for (const v of old.enum as unknown[]) if (!allowed.has(JSON.stringify(v))) out.push(`${path}: enum value ${JSON.stringify(v)} removed`)
  }
  if (now.uniqueItems === true && old.uniqueItems !== true) out.push(`${path}: uniqueItems added`)
}

const digits = (pattern: string) => pattern.replace(/(?<!\\)((?:\\\\)*)\\d/g, '$1[0-9]')
function samePattern(old: unknown, now: unknown): boolean {
  if (typeof old !== 'string' || typeof now !== 'string') return old === now
  return old === now || digits(old) === digits(now)
}

function impliedGuard(node: Node): boolean {
  const guard = isNode(node.not) && Object.keys(node.not).length === 1 && node.not.pattern === NOT_PRINTABLE
  return guard && typeof node.pattern === 'string' && matchesPrintableOnly(node.pattern)
}

function compareObject(old: Node, now: Node, path: string, out: string[]): void {
  const oldProps = (old.properties ?? {}) as Record<string, Node>
  const nowProps = (now.properties ?? {}) as Record<string, Node>
  for (const [name, prop] of Object.entries(oldProps)) {
    const next = nowProps[name]
    if (next === undefined) out.push(`${path}/properties/${name}: member removed`)
    else compareNode(prop, next, `${path}/properties/${name}`, out)
  }
  const oldRequired = new Set((old.required ?? []) as string[])
  for (const name of (now.required ?? []) as string[]) {
    if (!oldRequired.has(name)) out.push(`${path}/required: new required member ${name}`)
  }
  const [a, b] = [old.additionalProperties, now.additionalProperties]
  if (b === false && a !== false) out.push(`${path}: additionalProperties now false (unknown members refused)`)
  else if (isNode(b) && !isNode(a) && a !== false) out.push(`${path}/additionalProperties: schema added`)
  else if (isNode(a) && isNode(b)) compareNode(a, b, `${path}/additionalProperties`, out)
}

function withoutAnnotations(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutAnnotations)
  if (!isNode(node)) return node
  return Object.fromEntries(Object.entries(node).filter(([k]) => !ANNOTATIONS.has(k)).map(([k, v]) => [k, withoutAnnotations(v)]))
}

/** Breaking changes from `released` to `current` (whole documents, `$defs` compared by name). */
export function breakingChanges(released: JsonSchema, current: JsonSchema): string[] {
  const out: string[] = []
  compareNode(released, current, '#', out)
  const oldDefs = (released.$defs ?? {}) as Record<string, Node>
  const nowDefs = (current.$defs ?? {}) as Record<string, Node>
  for (const [name, def] of Object.entries(oldDefs)) {
    if (nowDefs[name] === undefined) out.push(`#/$defs/${name}: definition removed`)
    else compareNode(def, nowDefs[name], `#/$defs/${name}`, out)
  }
  return out
}

/** Whether the two documents differ in anything but annotations. */
export function changedBeyondAnnotations(released: JsonSchema, current: JsonSchema): boolean {
  return JSON.stringify(withoutAnnotations(released)) !== JSON.stringify(withoutAnnotations(current))
}

const parse = (version: string) => {
  const m = /^(\d+)\.(\d+)\.(\d+)$/.exec(version.trim())
  if (!m) throw new Error(`schema version ${JSON.stringify(version)} is not MAJOR.MINOR.PATCH`)
  return [Number(m[1]), Number(m[2]), Number(m[3])] as const
}
const below = (a: readonly number[], b: readonly number[]) => (a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!) < 0

/** One document's released and current form; `released` undefined for a document new since the release. */
export interface DocumentPair {
  file: string
  released: JsonSchema | undefined
  current: JsonSchema | undefined
}

/**
 * What the version policy refuses, as messages naming file and JSON pointer (empty: all is well).
 * A breaking change needs a higher major version than the release; any other change of a rule
 * needs at least a higher version; annotations are free.
 */
export function versionProblems(releasedVersion: string, currentVersion: string, pairs: DocumentPair[]): string[] {
  const [rel, cur] = [parse(releasedVersion), parse(currentVersion)]
  if (below(cur, rel)) return [`schema version ${currentVersion} is lower than the released ${releasedVersion}`]
  const breaking: string[] = []
  let changed = false
  for (const { file, released, current } of pairs) {
    if (released === undefined) changed = true
    else if (current === undefined) breaking.push(`${file}: document removed`)
    else {
      breaking.push(...breakingChanges(released, current).map((m) => `${file}: ${m}`))
      changed ||= changedBeyondAnnotations(released, current)
    }
  }
  if (breaking.length > 0 && cur[0] <= rel[0]) {
    return [
      ...breaking,
      `breaking changes since schema ${releasedVersion} need a new major version: set SCHEMA_VERSION in src/schema/version.ts to ${rel[0] + 1}.0.0 and run npm run generate`,
    ]
  }
  if ((changed || breaking.length > 0) && releasedVersion.trim() === currentVersion.trim()) {
    return [`the schema changed since release ${releasedVersion}: raise SCHEMA_VERSION in src/schema/version.ts (minor for additions) and run npm run generate`]
  }
  return []
}
