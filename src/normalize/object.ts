/**
 * Objects of known members: written in the shape's member order, absent members filled with
 * their empty value, unknown members kept after the known ones (input order) with a warning.
 * Optional members (Field.optional; all after the required ones) stay absent when absent or
 * `null`, and are written in their place in the order when present.
 */
import { isObject, type Options, setData } from './context.js'
import { type Field, token } from './field.js'
import { checked, compile, join, type Pattern, STRING } from './pattern.js'

export type Members = readonly (readonly [string, Field])[]

/** An object's normaliser, with its members (for the serialiser's order and the tests). */
export interface ObjectField<T> extends Field<T> {
  members: Members
}

/** How many members lead before the first optional one; throws if a required one follows an optional one. */
function requiredCount(members: Members): number {
  const count = members.findIndex(([, field]) => field.optional === true)
  const required = count === -1 ? members.length : count
  const late = members.slice(required).find(([, field]) => field.optional !== true)
  if (late) throw new Error(`member '${late[0]}' is required but follows an optional one`)
  return required
}

/**
 * The text of one member's value in an optional region, roughly: a scalar, a string, a list
 * without objects, or an object without nested objects (every optional member of the format is
 * one of these). Only delimits the region; the region's own pattern then decides.
 */
const VALUE = `(?:[^"{}\\[\\],]+|${STRING}|\\[[^"\\]]*(?:${STRING}[^"\\]]*)*\\]|\\{[^"{}]*(?:${STRING}[^"{}]*)*\\})`

/**
 * The canonical text of the optional members that follow required ones, as one capture group
 * checked after the match by its own compiled pattern (compiled when first needed). Inlined,
 * the protocol objects would make the event's pattern more than twice as long; past 20 KB of
 * source V8 compiles a regular expression without its optimisations, which cost documents
 * without them a quarter of the canonical path's speed (measured).
 */
function optionalRegion(members: Members): Pattern {
  const region = join(members.map(([name, field]) => join([`(?:,"${name}":`, field.pattern, ')?'])))
  let test: ((text: string, options: Options) => boolean) | undefined
  return checked(`(?:,"[^"\\\\]*":${VALUE})*`, (t, options) => t === undefined || t === '' || (test ??= compile(region))(t, options))
}

/**
 * The canonical text of an object with these members, each required member's value written by
 * `value`: required members in order, then the optional ones, present or not (optional members
 * are recognised in canonical form only). When every member is optional (a protocol object, in
 * an optional region's pattern), the first one present has no comma before it: a member follows
 * `{` directly, or a comma that does not follow `{` (the values never end in `{`). Adds no
 * capture group of its own before the last required member.
 */
export function membersPattern(members: Members, value: (name: string, field: Field) => Pattern): Pattern {
  const required = requiredCount(members)
  const parts: (Pattern | string)[] = ['\\{']
  members.slice(0, required).forEach(([name, field], i) => parts.push(`${i === 0 ? '' : ','}"${name}":`, value(name, field)))
  if (required > 0 && required < members.length) parts.push(optionalRegion(members.slice(required)))
  else if (required === 0) for (const [name, field] of members) parts.push('(?:(?:(?<=\\{)|(?<!\\{),)' + `"${name}":`, field.pattern, ')?')
  parts.push('\\}')
  return join(parts)
}

export function objectField<T extends object>(members: Members): ObjectField<T> {
  const known = new Set(members.map(([name]) => name))
  const count = members.length
  const required = requiredCount(members)
  const requiredNames = new Set(members.slice(0, required).map(([name]) => name))
  // The required members in order, as one fast-mode object (JSON.parse builds those whatever
  // the count): a copy of it is filled in place, and optional members present are added after
  // them, in order. An object grown member by member with computed names turns into a slow
  // dictionary past ~16 members (the event has 22), which then costs JSON.stringify much more.
  const template = JSON.parse(JSON.stringify(Object.fromEntries(members.slice(0, required).map(([name]) => [name, null])))) as Record<string, unknown>
  return {
    members,
    empty() {
      const out: Record<string, unknown> = { ...template }
      for (let i = 0; i < required; i++) out[members[i]![0]] = members[i]![1].empty()
      return out as T
    },
    fix(value, pointer, ctx) {
      if (!isObject(value)) {
        ctx.wrongType(pointer, 'object', value)
        return this.empty()
      }
      const out: Record<string, unknown> = { ...template }
      const { options } = ctx
      // A value already canonical is what fix() would return: taken as is, with no copy and
      // no pointer text built (most members of tool output and of converter drafts).
      const take = (name: string, field: Field, v: unknown) =>
        field.canonical(v, options) ? v : field.fix(v, `${pointer}/${name}`, ctx)
      for (let i = 0; i < required; i++) {
        const [name, field] = members[i]!
        const v = Object.hasOwn(value, name) ? value[name] : undefined
        out[name] = v === undefined ? field.empty() : take(name, field, v)
      }
      // Names beyond the required members: optional members present, or unknown members. Most
      // documents have none, and then pay no look-up of the optional names.
      let others: string[] | undefined
      for (const name of Object.keys(value)) if (!requiredNames.has(name)) (others ??= []).push(name)
      if (others === undefined) return out as T
      for (let i = required; i < count; i++) {
        const [name, field] = members[i]!
        const v = others.includes(name) ? value[name] : undefined
        if (v !== undefined && v !== null) out[name] = take(name, field, v) // absent or null: left out
      }
      for (const name of others) {
        if (known.has(name)) continue
        ctx.warn('unknown_member', `${pointer}/${token(name)}`, `member '${name}' is not part of the format; kept as is`)
        setData(out, name, value[name])
      }
      return out as T
    },
    canonical(value, options) {
      if (!isObject(value)) return false
      let i = 0
      for (const name in value) {
        let member = members[i++]
        // Optional members may be absent: skip over them to the one named.
        while (member !== undefined && member[0] !== name && i > required) member = members[i++]
        if (member === undefined || member[0] !== name || !member[1].canonical(value[name], options)) return false
      }
      return i >= required
    },
    pattern: membersPattern(members, (_name, field) => field.pattern),
    lenient: membersPattern(members, (_name, field) => field.lenient ?? field.pattern),
  }
}
