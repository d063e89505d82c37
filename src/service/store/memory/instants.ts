/** Event times as the memory store keeps them: whole milliseconds in a double, and the nanoseconds left over. */
import type { Instant } from '../../../time/index.js'

export const NS_PER_MS = 1_000_000n

/** The instant split() took apart. */
export const instant = (ms: number, ns: number): Instant => BigInt(ms) * NS_PER_MS + BigInt(ns)

/** An instant as whole milliseconds (exact in a double for years 0000–9999) and the nanoseconds left. */
export function split(time: Instant): [number, number] {
  let ms = time / NS_PER_MS
  let rest = time % NS_PER_MS
  if (rest < 0n) {
    ms -= 1n
    rest += NS_PER_MS
  }
  return [Number(ms), Number(rest)]
}
