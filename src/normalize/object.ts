/**
 * Objects of known members: written in the shape's member order, absent members filled with
 * their empty value, unknown members kept after the known ones (input order) with a warning.
 */
import { isObject, setData } from './context.js'
import { type Field, token } from './field.js'
import { join } from './pattern.js'

export type Members = readonly (readonly [string, Field])[]

export function objectField<T extends object>(members: Members): Field<T> {
  const known = new Set(members.map(([name]) => name))
  const count = members.length
  // Every member in order, as one fast-mode object (JSON.parse builds those whatever the
  // count): a copy of it is filled in place. An object grown member by member with computed
  // names turns into a slow dictionary past ~16 members (the event has 22), which then
  // costs JSON.stringify much more.
  const template = JSON.parse(JSON.stringify(Object.fromEntries(members.map(([name]) => [name, null])))) as Record<string, unknown>
  return {
    empty() {
      const out: Record<string, unknown> = { ...template }
      for (const [name, field] of members) out[name] = field.empty()
      return out as T
    },
    fix(value, pointer, ctx) {
      if (!isObject(value)) {
        ctx.wrongType(pointer, 'object', value)
        return this.empty()
      }
      const out: Record<string, unknown> = { ...template }
      const { options } = ctx
      for (let i = 0; i < count; i++) {
        const [name, field] = members[i]!
        const v = Object.hasOwn(value, name) ? value[name] : undefined
        // A value already canonical is what fix() would return: taken as is, with no copy and
        // no pointer text built (most members of tool output and of converter drafts).
        out[name] = v === undefined ? field.empty() : field.canonical(v, options) ? v : field.fix(v, `${pointer}/${name}`, ctx)
      }
      for (const name of Object.keys(value)) {
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
        const member = members[i++]
        if (member === undefined || member[0] !== name || !member[1].canonical(value[name], options)) return false
      }
      return i === count
    },
    pattern: join([
      '\\{',
      ...members.flatMap(([name, field], i) => [`${i === 0 ? '' : ','}"${name}":`, field.pattern]),
      '\\}',
    ]),
    lenient: join([
      '\\{',
      ...members.flatMap(([name, field], i) => [`${i === 0 ? '' : ','}"${name}":`, field.lenient ?? field.pattern]),
      '\\}',
    ]),
  }
}
