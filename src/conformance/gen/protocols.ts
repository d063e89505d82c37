/**
 * Arbitraries of the protocol objects and of the `ssh` extension (src/schema/protocols.ts), read
 * from their definitions so every member of every object is covered: strict values (each object
 * and each member present or not, in canonical order), and the lenient spellings real tools use
 * (`"yes"` for true, integers as text, `null` for absent).
 */
import fc, { type Arbitrary } from 'fast-check'
import { PROTOCOLS, SSH_EXTENSION } from '../../schema/index.js'
import { anyText } from './text.js'

type Kind = 'string' | 'strings' | 'boolean' | 'integer'
type Json = Record<string, unknown>

/** The kind of one member of a protocol object, from its definition. */
function kindOf(node: { type?: unknown }): Kind {
  if (node.type === 'array') return 'strings'
  if (node.type === 'string' || node.type === 'boolean' || node.type === 'integer') return node.type
  throw new Error(`a protocol member of type ${String(node.type)}`)
}

/** Every protocol object's members and their kinds, in canonical order. */
export const PROTOCOL_KINDS: readonly [string, readonly [string, Kind][]][] = Object.entries(PROTOCOLS).map(([name, part]) => [
  name,
  Object.entries(part.properties as Record<string, { type?: unknown }>).map(([member, node]): [string, Kind] => [member, kindOf(node)]),
])
/** The `ssh` extension's members and their kinds, in canonical order. */
export const SSH_EXTENSION_KINDS: readonly [string, Kind][] = Object.entries(SSH_EXTENSION as Record<string, { type?: unknown }>).map(([member, node]) => [member, kindOf(node)])

const WORDS = ['OpenSSH_9.6', 'RabbitMQ', '7.0.11', 'standalone', 'admin', 'UTF8', 'SIP/2.0', 'BIND', 'Etc/UTC', 'curve25519-sha256', 'publickey']
const value = (kind: Kind): Arbitrary<unknown> => {
  switch (kind) {
    case 'string':
      return anyText(WORDS, 16)
    case 'strings':
      return fc.array(anyText(WORDS, 12), { maxLength: 4 })
    case 'boolean':
      return fc.boolean()
    case 'integer':
      return fc.oneof(fc.constantFrom(0, 1, 10, 17, 100), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }))
  }
}

/** Any subset of `members`, in their order (objects with ordinary prototypes). */
const someOf = (members: readonly [string, Kind][], required: readonly string[] = []) =>
  fc.record(Object.fromEntries(members.map(([name, kind]) => [name, value(kind)])), { requiredKeys: required as string[], noNullPrototype: true }) as Arbitrary<Json>

/** A strict value of the protocol object `name` (any subset of its members, `{}` included). */
export const protocolObject = (name: string): Arbitrary<Json> => someOf(PROTOCOL_KINDS.find(([n]) => n === name)![1])

/** How often the generated events carry protocol objects: `sometimes` (about one in four), `always` or `never`. */
export type ProtocolFrequency = 'sometimes' | 'always' | 'never'

const often = (frequency: ProtocolFrequency, some: Arbitrary<Json>): Arbitrary<Json> => {
  if (frequency === 'never') return fc.constant({})
  const any = frequency === 'always' ? some : fc.oneof({ weight: 3, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: some })
  return any.map((members) => ({ ...members }))
}

/** A subset of the protocol objects, each a strict value, in canonical order (at least one when `always`). */
export function protocolObjects(frequency: ProtocolFrequency = 'sometimes'): Arbitrary<Json> {
  const some = fc.record(Object.fromEntries(PROTOCOL_KINDS.map(([name, members]) => [name, someOf(members)])), { requiredKeys: [], noNullPrototype: true })
  return often(frequency, frequency === 'always' ? some.filter((objects) => Object.keys(objects).length > 0) : some)
}

/** A subset of the `ssh` extension's members. */
export function sshExtension(frequency: ProtocolFrequency = 'sometimes'): Arbitrary<Json> {
  return often(frequency, someOf(SSH_EXTENSION_KINDS))
}

/** How a lenient document spells its protocol members. */
export interface LenientProtocolForms {
  /** Booleans as `keep`, yes/no text in some case, or 0 and 1. */
  flags: 'keep' | 'text' | 'number'
  /** Integers as text. */
  intsAsText: boolean
  /** Absent members of a present object written `null`. */
  nullMembers: boolean
  /** Absent protocol objects written `null`. */
  nullObjects: string[]
}

export const lenientProtocolForms = (): Arbitrary<LenientProtocolForms> =>
  fc.record({
    flags: fc.constantFrom('keep' as const, 'text' as const, 'number' as const),
    intsAsText: fc.boolean(),
    nullMembers: fc.boolean(),
    nullObjects: fc.subarray(PROTOCOL_KINDS.map(([name]) => name), { maxLength: 2 }),
  })

const TEXT_FORMS: Record<string, string[]> = { true: ['yes', 'Yes', 'TRUE', 'true', '1'], false: ['no', 'NO', 'False', 'false', '0'] }

/** Respells, in place, the protocol members of `doc` (a copy of a strict event) as `forms` says. */
export function respellProtocols(doc: Json, forms: LenientProtocolForms): void {
  let turn = 0
  const respell = (object: Json, members: readonly [string, Kind][]) => {
    for (const [name, kind] of members) {
      const v = object[name]
      if (v === undefined) {
        if (forms.nullMembers) object[name] = null
      } else if (kind === 'boolean' && forms.flags === 'text') object[name] = TEXT_FORMS[String(v)]![turn++ % 5]
      else if (kind === 'boolean' && forms.flags === 'number') object[name] = v ? 1 : 0
      else if (kind === 'integer' && forms.intsAsText) object[name] = String(v)
    }
  }
  for (const [name, members] of PROTOCOL_KINDS) {
    const object = doc[name]
    if (object !== undefined && object !== null) respell(object as Json, members)
    else if (forms.nullObjects.includes(name)) doc[name] = null
  }
  const ssh = doc.ssh
  if (typeof ssh === 'object' && ssh !== null) respell(ssh as Json, SSH_EXTENSION_KINDS)
}
