/** What the strict profile reports without rejecting: unknown members, values outside the known lists. */
import { Event, SEVERITIES, STAGES } from '../schema/index.js'
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

const EVENT_TREE = knownTree(Event as never)!
const MODULE_TREE = knownTree((Event.properties.service.properties.software.properties.modules.anyOf[0] as unknown as { items: never }).items)!

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
