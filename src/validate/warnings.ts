/** What the strict profile reports without rejecting: unknown members, values outside the known lists. */
// The member trees come pre-built from `npm run generate`, so this module loads no TypeBox.
import { event as EVENT_SKELETON, module as MODULE_SKELETON, severities as SEVERITIES, stages as STAGES } from './compiled/members.js'
import { type Issue, pointerToken } from './issue.js'

interface KnownTree {
  [member: string]: KnownTree | null
}

/** Known members per object, read from the TypeBox definition (maps and scalars are leaves). */
function knownTree(schema: { properties?: Record<string, unknown>; anyOf?: unknown[]; items?: unknown }): KnownTree | null {
  if (schema.properties) {
    const tree: KnownTree = Object.create(null)
    for (const [name, prop] of Object.entries(schema.properties)) tree[name] = knownTree(prop as typeof schema)
    return tree
  }
  return null
}

const EVENT_TREE = knownTree(EVENT_SKELETON as never)!

/** Per object: how many members it has when none is unknown, and its nested objects. */
interface CountTree {
  required: number
  optional: string[]
  /** Nested objects that are always there. */
  nested: [string, CountTree][]
  /** Nested objects that may be absent (the protocol objects): looked at only when some optional member is there. */
  optionalNested: [string, CountTree][]
}

function countTree(schema: { properties?: Record<string, never>; required?: string[] }): CountTree {
  const props = Object.entries(schema.properties ?? {}) as [string, { properties?: never }][]
  const required = (name: string) => schema.required?.includes(name) === true
  const objects = props.filter(([, p]) => p.properties).map(([name, p]): [string, CountTree] => [name, countTree(p as never)])
  return {
    required: schema.required?.length ?? 0,
    optional: props.map(([name]) => name).filter((name) => !required(name)),
    nested: objects.filter(([name]) => required(name)),
    optionalNested: objects.filter(([name]) => !required(name)),
  }
}

const EVENT_COUNTS = countTree(EVENT_SKELETON as never)
const MODULE_COUNTS = countTree(MODULE_SKELETON as never)

/**
 * Whether a document that passed the strict profile has members beyond the known ones. Every
 * required member is then present, so counting keys per object is enough: no name look-ups.
 */
export function hasUnknownMembers(doc: Record<string, unknown>, tree: CountTree = EVENT_COUNTS): boolean {
  let keys = 0
  for (const _ in doc) keys++
  // Optional members are looked up only when there are more keys than required ones (most
  // documents carry no protocol object: no look-up then).
  if (keys !== tree.required) {
    let allowed = tree.required
    for (const name of tree.optional) if (Object.hasOwn(doc, name)) allowed++
    if (keys !== allowed) return true
    for (const [name, sub] of tree.optionalNested) {
      const value = doc[name]
      if (value !== undefined && hasUnknownMembers(value as Record<string, unknown>, sub)) return true
    }
  }
  for (const [name, sub] of tree.nested) if (hasUnknownMembers(doc[name] as Record<string, unknown>, sub)) return true
  const modules = (doc as { service?: { software?: { modules?: unknown } } }).service?.software?.modules
  if (tree === EVENT_COUNTS && Array.isArray(modules)) {
    for (const m of modules) if (hasUnknownMembers(m as Record<string, unknown>, MODULE_COUNTS)) return true
  }
  return false
}
const MODULE_TREE = knownTree(MODULE_SKELETON as never)!

export function unknownMembers(doc: unknown): Issue[] {
  const found: Issue[] = []
  walk(doc, EVENT_TREE, '', found)
  const modules = (doc as { service?: { software?: { modules?: unknown } } })?.service?.software?.modules
  if (Array.isArray(modules)) modules.forEach((m, i) => walk(m, MODULE_TREE, `/service/software/modules/${i}`, found))
  return found
}

function walk(value: unknown, tree: KnownTree, path: string, found: Issue[]): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return
  for (const name of Object.keys(value)) {
    const pointer = `${path}/${pointerToken(name)}`
    if (!(name in tree)) {
      found.push({ code: 'unknown_member', pointer, message: `member '${name}' is not part of the format; implementations ignore it` })
      continue
    }
    const sub = tree[name]
    if (sub) walk((value as Record<string, unknown>)[name], sub, pointer, found)
  }
}

const LISTS: [string, string, readonly string[]][] = [
  ['/leak/severity', 'severity', SEVERITIES],
  ['/leak/stage', 'stage', STAGES],
]

export function unknownValues(doc: unknown): Issue[] {
  const leak = (doc as { leak?: Record<string, unknown> })?.leak
  if (typeof leak !== 'object' || leak === null) return []
  const found: Issue[] = []
  for (const [pointer, name, list] of LISTS) {
    const value = leak[name]
    if (typeof value === 'string' && value !== '' && !list.includes(value)) {
      found.push({
        code: 'unknown_value',
        pointer,
        message: `${name} '${value}' is not one of ${list.join(', ')}`,
        expected: list.join(' | '),
        found: value,
      })
    }
  }
  return found
}
