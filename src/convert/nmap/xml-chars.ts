/**
 * Character rules of XML 1.0 for the nmap XML scanner (xml-scanner.ts): which characters may
 * start or continue a name, which may appear at all, and the decoding of references
 * (`&lt;`, `&#10;`, `&#xa;`, …). Messages are saxes' own, so errors read the same as before.
 */

/** Thrown where the input breaks a rule; `at` is the index just past the offending character. */
export class XmlFault extends Error {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(message)
  }
}

/** ASCII lookup: 1 = may start a name, 2 = may continue one (digits, `-`, `.`), 0 = neither. */
const ASCII_NAME = new Uint8Array(128)
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c)
  if (/[A-Za-z_:]/.test(ch)) ASCII_NAME[c] = 1
  else if (/[0-9.-]/.test(ch)) ASCII_NAME[c] = 2
}

/** NameStartChar of XML 1.0 (fifth edition), for a whole code point. */
export function isNameStart(c: number): boolean {
  if (c < 128) return ASCII_NAME[c] === 1
  return (
    (c >= 0xc0 && c <= 0xd6) ||
    (c >= 0xd8 && c <= 0xf6) ||
    (c >= 0xf8 && c <= 0x2ff) ||
    (c >= 0x370 && c <= 0x37d) ||
    (c >= 0x37f && c <= 0x1fff) ||
    c === 0x200c ||
    c === 0x200d ||
    (c >= 0x2070 && c <= 0x218f) ||
    (c >= 0x2c00 && c <= 0x2fef) ||
    (c >= 0x3001 && c <= 0xd7ff) ||
    (c >= 0xf900 && c <= 0xfdcf) ||
    (c >= 0xfdf0 && c <= 0xfffd) ||
    (c >= 0x10000 && c <= 0xeffff)
  )
}

/** NameChar of XML 1.0, for a whole code point. */
export function isNameChar(c: number): boolean {
  if (c < 128) return ASCII_NAME[c] !== 0
  return isNameStart(c) || c === 0xb7 || (c >= 0x300 && c <= 0x36f) || c === 0x203f || c === 0x2040
}

/**
 * End of the name starting at `from` (the index of the first character that is not a name
 * character, or `end`). ASCII is read from a table; other characters, surrogate pairs
 * included, go through isNameChar.
 */
export function nameEnd(buf: string, from: number, end: number): number {
  let i = from
  while (i < end) {
    const c = buf.charCodeAt(i)
    if (c < 128) {
      if (ASCII_NAME[c] === 0) return i
      i++
    } else {
      const cp = buf.codePointAt(i)!
      if (!isNameChar(cp)) return i
      i += cp > 0xffff ? 2 : 1
    }
  }
  return i
}

/** Whether `buf[i]` begins a name (a surrogate pair read as one character). */
export const startsName = (buf: string, i: number): boolean => {
  const c = buf.charCodeAt(i)
  return c < 128 ? ASCII_NAME[c] === 1 : isNameStart(buf.codePointAt(i)!)
}

/** XML white space: space, tab, line feed, carriage return. */
export const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d

/** Characters XML 1.0 forbids anywhere (TextDecoder never yields a lone surrogate). */
export const DISALLOWED = /[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]/

/** Char of XML 1.0: what a character reference may name. */
const isChar = (n: number): boolean =>
  n === 0x9 || n === 0xa || n === 0xd || (n >= 0x20 && n <= 0xd7ff) || (n >= 0xe000 && n <= 0xfffd) || (n >= 0x10000 && n <= 0x10ffff)

/**
 * The reference starting at `buf[amp] === '&'`, if its `;` comes before `to`: its text and
 * the index past its `;`. The forms nmap writes (`&#xa;`, `&#10;`, the five named ones) are
 * read in place; anything else goes through the general, error-naming path.
 */
function reference(buf: string, amp: number, to: number): { text: string; next: number } | undefined {
  if (buf.charCodeAt(amp + 1) === 0x23 /* # */) {
    const hex = buf.charCodeAt(amp + 2) === 0x78 /* x */
    let i = hex ? amp + 3 : amp + 2
    let n = 0
    const first = i
    for (; i < to && i - first < 8; i++) {
      const d = digit(buf.charCodeAt(i), hex)
      if (d < 0) break
      n = n * (hex ? 16 : 10) + d
    }
    if (i > first && i < to && buf.charCodeAt(i) === 0x3b && isChar(n)) return { text: String.fromCodePoint(n), next: i + 1 }
  } else {
    for (const [name, text] of NAMED) if (buf.startsWith(name, amp + 1) && amp + name.length < to) return { text, next: amp + 1 + name.length }
  }
  // Not one of the usual forms: cut by `to`, or an error to name.
  const body = buf.charCodeAt(amp + 1) === 0x23 ? amp + 2 : amp + 1
  const semi = nameEnd(buf, body, to)
  if (semi >= to) return undefined
  if (buf.charCodeAt(semi) !== 0x3b /* ; */) throw new XmlFault(UNCLOSED_REFERENCE, semi + 1)
  const name = buf.slice(amp + 1, semi)
  // Numbers with many leading zeros are valid too.
  const n = /^#x[0-9a-f]+$/i.test(name) ? parseInt(name.slice(2), 16) : /^#[0-9]+$/.test(name) ? parseInt(name.slice(1), 10) : NaN
  if (isChar(n)) return { text: String.fromCodePoint(n), next: semi + 1 }
  throw new XmlFault(referenceError(name), semi + 1)
}

/** The value of a decimal or hexadecimal digit, or -1. */
function digit(c: number, hex: boolean): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30
  if (!hex) return -1
  const lower = c | 0x20
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1
}

const NAMED: [string, string][] = [
  ['amp;', '&'],
  ['lt;', '<'],
  ['gt;', '>'],
  ['quot;', '"'],
  ['apos;', "'"],
]

/** saxes' message for the reference `&body;` that is none of the allowed ones. */
function referenceError(body: string): string {
  if (body === '') return 'empty entity name.'
  if (body.charCodeAt(0) === 0x23 /* # */) return 'malformed character entity.'
  return startsName(body, 0) && nameEnd(body, 0, body.length) === body.length ? 'undefined entity.' : 'disallowed character in entity name.'
}

/**
 * `buf[from, to)` with its references replaced; with `spaces` (an attribute value holding
 * tabs or line feeds), those become spaces as XML's attribute-value normalisation asks (line
 * ends are already `\n`). A reference must end with `;` right after its name or number,
 * else it is a fault at the first character that cannot be part of it; one cut by `to` is a
 * fault too unless `partial`: then the text decoded so far is returned with `stop` at its
 * `&`, for the caller to carry over to the next chunk.
 */
export function decode(buf: string, from: number, to: number, spaces: boolean, partial = false): { text: string; stop: number } {
  let text = ''
  let start = from
  let i = spaces ? from : buf.indexOf('&', from)
  while (i !== -1 && i < to) {
    const c = buf.charCodeAt(i)
    if (c === 0x26 /* & */) {
      const ref = reference(buf, i, to)
      if (ref === undefined) {
        if (partial) return { text: text + buf.slice(start, i), stop: i }
        throw new XmlFault(UNCLOSED_REFERENCE, to + 1)
      }
      text += buf.slice(start, i) + ref.text
      start = i = ref.next
    } else if (spaces && (c === 0x0a || c === 0x09)) {
      text += `${buf.slice(start, i)} `
      start = ++i
    } else i++
    if (!spaces) i = buf.indexOf('&', i)
  }
  return { text: text + buf.slice(start, to), stop: to }
}

/** Ours, not saxes' (which reads on to the next `;` wherever it is and names what it finds). */
const UNCLOSED_REFERENCE = "entity reference without its closing ';'."
