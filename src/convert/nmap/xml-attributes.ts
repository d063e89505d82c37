/**
 * The attributes of the start tag being handled, as places in the scanned text: a value
 * becomes a string only when the handler asks for it, so attributes nobody reads (most of
 * nmap's: `reason`, `reason_ttl`, `conf`, …) cost no string. Values holding references or
 * tabs and line feeds are decoded while scanning (to check them) and kept decoded.
 * Valid only during the handler's `open` call: the scanner reuses it for the next tag.
 */
import { decode, isSpace, nameEnd, XmlFault } from './xml-chars.js'
import { MORE } from './xml-markup.js'

export class XmlAttributes {
  private buf = ''
  private count = 0
  private readonly nameStart: number[] = []
  private readonly nameEnd: number[] = []
  private readonly valueStart: number[] = []
  private readonly valueEnd: number[] = []
  private readonly decoded: (string | undefined)[] = []

  /** Forgets the attributes of the previous tag; the next ones are places in `buf`. */
  reset(buf: string): void {
    this.buf = buf
    this.count = 0
  }

  /** One more attribute: name `buf[ns, ne)`, value `buf[vs, ve)` or, if given, `decoded`. */
  add(ns: number, ne: number, vs: number, ve: number, decoded: string | undefined): void {
    const k = this.count++
    this.nameStart[k] = ns
    this.nameEnd[k] = ne
    this.valueStart[k] = vs
    this.valueEnd[k] = ve
    this.decoded[k] = decoded
  }

  get size(): number {
    return this.count
  }

  /** The value of attribute `name`, or undefined when the tag has none. */
  get(name: string): string | undefined {
    const { buf, nameStart, nameEnd } = this
    const length = name.length
    for (let k = 0; k < this.count; k++) {
      const ns = nameStart[k]!
      if (nameEnd[k]! - ns !== length) continue
      // Compared in place: names are short, shorter than a call to startsWith costs.
      let i = 0
      while (i < length && buf.charCodeAt(ns + i) === name.charCodeAt(i)) i++
      if (i === length) return this.value(k)
    }
    return undefined
  }

  /** Name and value of the k-th attribute, in the order of the tag. */
  name(k: number): string {
    return this.buf.slice(this.nameStart[k], this.nameEnd[k])
  }

  value(k: number): string {
    return this.decoded[k] ?? this.buf.slice(this.valueStart[k], this.valueEnd[k])
  }

  /** The name given twice in this tag, if any (XML forbids it). */
  duplicate(): string | undefined {
    const { buf, nameStart, nameEnd } = this
    for (let k = 1; k < this.count; k++) {
      const ks = nameStart[k]!
      const length = nameEnd[k]! - ks
      for (let j = 0; j < k; j++) if (nameEnd[j]! - nameStart[j]! === length && sameText(buf, nameStart[j]!, ks, length)) return this.name(k)
    }
    return undefined
  }
}

/** Whether `buf[a, a + length)` and `buf[b, b + length)` hold the same text. */
function sameText(buf: string, a: number, b: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (buf.charCodeAt(a + i) !== buf.charCodeAt(b + i)) return false
  return true
}

/** `name="value"` from `buf[from]` (a name's first character), added to `attributes`; the index past it, or MORE. */
export function readAttribute(buf: string, from: number, end: number, attributes: XmlAttributes): number {
  const nameStop = nameEnd(buf, from, end)
  let i = nameStop
  while (i < end && isSpace(buf.charCodeAt(i))) i++
  if (i >= end) return MORE
  if (buf.charCodeAt(i) !== 0x3d /* = */) {
    // saxes' words: a character that cannot be in a name, else a name with no `=` after it.
    const misplaced = i === nameStop && buf.charCodeAt(i) !== 0x3e
    throw new XmlFault(misplaced ? 'disallowed character in attribute name.' : 'attribute without value.', i + 1)
  }
  i++
  while (i < end && isSpace(buf.charCodeAt(i))) i++
  if (i >= end) return MORE
  const quote = buf.charCodeAt(i)
  if (quote !== 0x22 && quote !== 0x27) throw new XmlFault('unquoted attribute value.', i + 1)
  const valueStart = ++i
  // One loop over the value: values are short, shorter than a native search's own cost.
  let special = 0
  for (; i < end; i++) {
    const c = buf.charCodeAt(i)
    if (c === quote) break
    if (c === 0x3c /* < */) throw new XmlFault('disallowed character.', i + 1)
    if (c === 0x26 /* & */) special |= 1
    else if (c === 0x0a || c === 0x09) special |= 2
  }
  if (i >= end) return MORE
  const valueEnd = i
  const decoded = special === 0 ? undefined : decode(buf, valueStart, valueEnd, special > 1).text
  attributes.add(from, nameStop, valueStart, valueEnd, decoded)
  return valueEnd + 1
}
