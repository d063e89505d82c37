/**
 * The order of two canonical date-times (formatTime's text: `YYYY-MM-DDTHH:MM:SS[.fraction]Z`)
 * without reading them into instants: the fixed-width head orders as text, then the fraction
 * digits, padded to nine. Text of another shape is read with parseTime (a RangeError if it is
 * not a date-time at all).
 */
import { parseTime } from './parse.js'

/** Negative when `a` is earlier than `b`, positive when later, 0 when the same instant. */
export function compareTimeText(a: string, b: string): number {
  if (!canonicalShape(a) || !canonicalShape(b)) return compareParsed(a, b)
  // Character by character, no new strings (the bulk export sorts each resource's events so).
  for (let i = 0; i < 19; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x !== y) return x < y ? -1 : 1
  }
  // The fraction's digits from index 20 up to the `Z`, a missing digit read as 0.
  const endA = a.length - 1
  const endB = b.length - 1
  for (let i = 20; i < 29; i++) {
    const x = i < endA ? a.charCodeAt(i) : 0x30
    const y = i < endB ? b.charCodeAt(i) : 0x30
    if (x !== y) return x < y ? -1 : 1
  }
  return 0
}

/** The markers of formatTime's text (the digits are taken on trust: the stores write canonical times). */
function canonicalShape(t: string): boolean {
  const n = t.length
  return n >= 20 && n <= 30 && t.charCodeAt(10) === 0x54 && t.charCodeAt(n - 1) === 0x5a && (n === 20 || (t.charCodeAt(19) === 0x2e && n >= 22))
}

function compareParsed(a: string, b: string): number {
  const x = parseTime(a)
  const y = parseTime(b)
  if (!x.ok) throw new RangeError(x.reason)
  if (!y.ok) throw new RangeError(y.reason)
  return x.value < y.value ? -1 : x.value > y.value ? 1 : 0
}
