/**
 * Protocol objects as converters gather them (src/schema/protocols.ts): members are set as a
 * source gives them, in any order and from several places (two nmap scripts may both fill
 * `mongodb`), then put on the event once, in canonical order, so the draft stays canonical.
 * Only what the source holds is set: an object without members is left out.
 */
import type { Event } from '../../schema/index.js'
import type { Protocols, SSH_EXTENSION } from '../../schema/protocols.js'
// The members' order as generated from the schema: converters load no TypeBox (issue 39).
import { protocols as PROTOCOL_MEMBERS, sshExtension as SSH_MEMBERS } from '../../validate/compiled/members.js'

/** The `ssh` members beyond its four specified ones. */
export type SshExtension = { -readonly [K in keyof typeof SSH_EXTENSION]?: Event['ssh'][K] }

/** What a converter found, per protocol object (and for the `ssh` extension). */
export type Found = { -readonly [K in keyof Protocols]?: Partial<Protocols[K]> } & { ssh?: SshExtension }

const SSH_ORDER = Object.keys(SSH_MEMBERS) as (keyof SshExtension)[]
const PROTOCOL_NAMES = Object.keys(PROTOCOL_MEMBERS) as (keyof Protocols)[]
const ORDER = Object.fromEntries(PROTOCOL_NAMES.map((name) => [name, Object.keys(PROTOCOL_MEMBERS[name]!)])) as Record<keyof Protocols, string[]>

/** The members of `part` in `order`, those set only; undefined when none is. */
function ordered(part: Record<string, unknown>, order: readonly string[]): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined
  for (const name of order) if (part[name] !== undefined) (out ??= {})[name] = part[name]
  return out
}

/**
 * Puts what was found on the event: the `ssh` extension after the four `ssh` members, the
 * protocol objects after every other member, each in canonical order. Members the event
 * already has are kept (a later converter step never overwrites what an earlier one set).
 */
export function attachProtocols(event: Event, found: Found): void {
  if (found.ssh) {
    const ssh = event.ssh as Record<string, unknown>
    const given = found.ssh as Record<string, unknown>
    for (const name of SSH_ORDER) if (given[name] !== undefined && ssh[name] === undefined) ssh[name] = given[name]
  }
  const target = event as Event & Record<string, unknown>
  for (const name of PROTOCOL_NAMES) {
    const part = found[name]
    if (part === undefined) continue
    const object = ordered(part as Record<string, unknown>, ORDER[name])
    if (object !== undefined) target[name] = object
  }
}

/** True when nothing was found. */
export const nothingFound = (found: Found): boolean => Object.keys(found).length === 0

/** Text that says yes or no (`yes`, `no`, `true`, `false`, `1`, `0`, any case) as a boolean; undefined otherwise. */
export function yesNo(text: string): boolean | undefined {
  const t = text.trim().toLowerCase()
  if (t === 'yes' || t === 'true' || t === '1') return true
  if (t === 'no' || t === 'false' || t === '0') return false
  return undefined
}

/** A non-negative safe integer written in decimal digits; undefined otherwise. */
export function count(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined
  if (typeof value !== 'string' || !/^\s*\d{1,16}\s*$/.test(value)) return undefined
  const n = Number(value)
  return Number.isSafeInteger(n) ? n : undefined
}

/** Strings of a list in their order, blanks trimmed, empty ones left out; undefined when none is left. */
export function names(values: readonly string[]): string[] | undefined {
  const out: string[] = []
  for (const v of values) {
    const t = v.trim()
    if (t !== '') out.push(t)
  }
  return out.length === 0 ? undefined : out
}

/** A string, blanks trimmed; undefined when empty. */
export function given(text: string | undefined): string | undefined {
  const t = text?.trim()
  return t === undefined || t === '' ? undefined : t
}
