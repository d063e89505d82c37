/** FNV-1 32-bit (multiply, then xor: not FNV-1a), as a running state over fed bytes. */

export const FNV_OFFSET = 0x811c9dc5
const FNV_PRIME = 0x01000193

/** The state after feeding `bytes[from, to)` into a hasher in state `state`. */
export function fnv1(state: number, bytes: Uint8Array, from = 0, to = bytes.length): number {
  let h = state
  for (let i = from; i < to; i++) h = (Math.imul(h, FNV_PRIME) ^ bytes[i]!) >>> 0
  return h
}
