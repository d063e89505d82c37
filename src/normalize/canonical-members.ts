/**
 * Chosen top-level members of an event read straight from its canonical text, in the one pass
 * that checks the text is canonical: the canonical pattern (pattern.ts) with a capture around
 * each chosen member's value, so the same texts match and the match hands over the values.
 * Only the chosen members are parsed (a port is `"443"`, not the whole event), which is what
 * makes `l9kit filter` about as cheap as `validate`'s short way on canonical input.
 */
import { resolveOptions } from './context.js'
import { membersPattern } from './object.js'
import type { Check } from './pattern.js'
import { EVENT_MEMBERS } from './shape.js'

const KEEP = resolveOptions({ fingerprint: 'keep' })
const always: Check = () => true

/** The members present in every canonical event; the others (protocol objects) are optional. */
const REQUIRED = new Set(EVENT_MEMBERS.filter(([, field]) => field.optional !== true).map(([name]) => name))

/**
 * Returns a reader of `names`: for text that is canonical (what isCanonicalText accepts with
 * `fingerprint: 'keep'`), an object holding each named member present in it, parsed (required
 * members always; a protocol object when the event has it; unknown names never, canonical text
 * has no unknown members); null for any other text (then parse it instead). Build one reader
 * per set of names and keep it: building compiles the event's whole pattern.
 */
export function canonicalMembers(names: readonly string[]): (text: string) => Record<string, unknown> | null {
  const wanted = new Set(names)
  // Parallel lists, read by index in the per-line loop.
  const members: string[] = []
  const groups: number[] = []
  let count = 0
  // membersPattern visits the required members in order and adds no group of its own before
  // the optional region at the end, so the groups before a member are the checks before it.
  const pattern = membersPattern(EVENT_MEMBERS, (name, field) => {
    let part = field.pattern
    if (wanted.has(name)) {
      members.push(name)
      groups.push(count + 1)
      part = { source: `(${part.source})`, checks: [always, ...part.checks] }
    }
    count += part.checks.length
    return part
  })
  const re = new RegExp(`^${pattern.source}$`)
  const { checks } = pattern
  // The optional members' region (`,"redis":{…},…` or ''): the last group, after every required member's.
  const region = REQUIRED.size < EVENT_MEMBERS.length ? checks.length : 0
  const optional = [...wanted].filter((name) => !REQUIRED.has(name))
  return (text) => {
    const m = re.exec(text)
    if (m === null) return null
    for (let i = 0; i < checks.length; i++) if (checks[i]!(m[i + 1], KEEP) !== true) return null
    const out: Record<string, unknown> = {}
    for (let i = 0; i < groups.length; i++) out[members[i]!] = JSON.parse(m[groups[i]!]!)
    const rest = region === 0 || optional.length === 0 ? '' : (m[region] ?? '')
    if (rest !== '') {
      const present = JSON.parse(`{${rest.slice(1)}}`) as Record<string, unknown>
      for (const name of optional) if (Object.hasOwn(present, name)) out[name] = present[name]
    }
    return out
  }
}
