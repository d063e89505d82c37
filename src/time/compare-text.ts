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
  const head = a.slice(0, 19)
  const other = b.slice(0, 19)
  if (head !== other) return head < other ? -1 : 1
  const x = a.slice(20, -1).padEnd(9, '0')
  const y = b.slice(20, -1).padEnd(9, '0')
  return x < y ? -1 : x > y ? 1 : 0
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
