/** Opaque identifiers of the hook API: a prefix, `_`, and 20 random base62 characters. */
import { randomBytes } from 'node:crypto'

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** `prefix_` + 20 base62 characters (about 119 random bits). */
export function newId(prefix: 'res' | 'hook' | 'msg'): string {
  const bytes = randomBytes(20)
  let text = `${prefix}_`
  // `b % 62` favours a few characters slightly: harmless for identifiers, which need no uniformity.
  for (const b of bytes) text += ALPHABET[b % 62]
  return text
}
