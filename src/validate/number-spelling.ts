/**
 * Integers written with a fraction or an exponent (`"status": 200.0`, `2e2`): JSON.parse gives
 * the integer 200, so the schema cannot see them, but they are not canonical (a canonical
 * integer is written without either) and the original Go decoder, like every shipped type,
 * refuses them for an `int` member. The strict profile says so when it has the document's
 * text (JSON Lines, the CLI's `validate`); the lenient profile accepts them and `normalize`
 * writes the integer.
 *
 * A document rarely has one, so the text is first looked at for an integer member whose value
 * is a number written with a fraction or exponent (hasCandidate); only when one is found is the
 * text walked to name the members exactly.
 * The integer members come from `npm run generate` (compiled/members.js), not from the schema
 * file: this module is on the CLI's start-up path.
 */
import { type IntegerNode, integers } from './compiled/members.js'
import type { Issue } from './issue.js'
import { pointerToken } from './issue.js'

const ROOT: IntegerNode = integers

const isInteger = (type: unknown) => type === 'integer' || (Array.isArray(type) && type.includes('integer'))

/** Names of the members whose type is integer, anywhere in the event. */
function integerNames(): Set<string> {
  const names = new Set<string>()
  const walk = (node: IntegerNode) => {
    for (const [name, member] of Object.entries(node.properties ?? {})) {
      if (isInteger(member.type)) names.add(name)
      walk(member)
    }
    if (node.items) walk(node.items)
  }
  walk(ROOT)
  return names
}

let names: Set<string> | undefined

/** JavaScript's `\s`: what the rule's first form (a regular expression) took for blanks. */
const isSpace = (c: number) =>
  c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff

/**
 * True when some integer member of `text` may be written with a fraction or exponent: a member
 * name (one of the integers') followed by a number with `.`, `e` or `E` after its digits. The
 * same as `.test` of `"(?:name|…)"\s*:\s*-?[0-9]+(?:\.|[eE])` (a name holds no quote, so the
 * quote before the colon closes it and the one before that opens it), which tried every name at
 * every quote: about a quarter of JSON.parse's time. Here each colon is found natively and
 * looked at for a few characters; most are followed by a string, an object or a plain integer.
 */
export function hasCandidate(text: string): boolean {
  names ??= integerNames()
  for (let colon = text.indexOf(':'); colon !== -1; colon = text.indexOf(':', colon + 1)) {
    let i = colon + 1
    let c = text.charCodeAt(i)
    while (isSpace(c)) c = text.charCodeAt(++i)
    if (c === 0x2d) c = text.charCodeAt(++i) // -
    if (!(c >= 0x30 && c <= 0x39)) continue
    do c = text.charCodeAt(++i)
    while (c >= 0x30 && c <= 0x39)
    if (c !== 0x2e && c !== 0x65 && c !== 0x45) continue // . e E
    let close = colon - 1
    c = text.charCodeAt(close)
    while (isSpace(c)) c = text.charCodeAt(--close)
    if (c !== 0x22) continue // "
    const open = text.lastIndexOf('"', close - 1)
    if (open !== -1 && names.has(text.slice(open + 1, close))) return true
  }
  return false
}

/** True when the schema types the member at `tokens` as an integer. */
function integerAt(tokens: readonly string[]): boolean {
  let node = ROOT
  for (const token of tokens) {
    const next = node.properties?.[token] ?? (/^[0-9]+$/.test(token) ? node.items : undefined)
    if (next === undefined) return false
    node = next
  }
  return isInteger(node.type)
}

const NUMBER = /-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?/y
const STRING = /"(?:[^"\\]|\\.)*"/y

/** Each number of `text` (a JSON text that parses) written with a fraction or exponent, with its path. */
function spelledNumbers(text: string): { tokens: string[]; spelled: string }[] {
  const found: { tokens: string[]; spelled: string }[] = []
  // One frame per open container: the path to it, and in an object the key just read.
  const stack: { tokens: string[]; array: boolean; index: number; key?: string }[] = []
  const pathOfValue = () => {
    const top = stack[stack.length - 1]
    if (!top) return []
    return [...top.tokens, top.array ? String(top.index) : top.key!]
  }
  let i = 0
  while (i < text.length) {
    const c = text[i]!
    if (c === '{' || c === '[') {
      stack.push({ tokens: pathOfValue(), array: c === '[', index: 0 })
      i++
    } else if (c === '}' || c === ']') {
      stack.pop()
      i++
    } else if (c === ',') {
      const top = stack[stack.length - 1]
      if (top?.array) top.index++
      else if (top) top.key = undefined
      i++
    } else if (c === '"') {
      STRING.lastIndex = i
      const m = STRING.exec(text)!
      const top = stack[stack.length - 1]
      if (top && !top.array && top.key === undefined) top.key = JSON.parse(m[0]) as string
      i += m[0].length
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      NUMBER.lastIndex = i
      const m = NUMBER.exec(text)!
      if (m[1] !== undefined || m[2] !== undefined) found.push({ tokens: pathOfValue(), spelled: m[0] })
      i += m[0].length
    } else i++
  }
  return found
}

/**
 * The issues of an event document's text (one that JSON.parse accepts) whose integer members
 * are written with a fraction or exponent: one `wrong_type` error each.
 */
export function integerSpellingIssues(text: string): Issue[] {
  if (!hasCandidate(text)) return []
  return spelledNumbers(text)
    // A value with a real fraction (200.5) is not an integer at all: the schema says so already.
    .filter((n) => Number.isInteger(Number(n.spelled)) && integerAt(n.tokens))
    .map((n) => ({
      code: 'wrong_type' as const,
      pointer: n.tokens.map((t) => `/${pointerToken(t)}`).join(''),
      message: `expected integer, found ${n.spelled}: a canonical integer is written without a fraction or exponent (normalize writes ${String(Number(n.spelled))})`,
      rule: 'type: integer (canonical spelling)',
      expected: 'integer',
      found: n.spelled,
    }))
}
