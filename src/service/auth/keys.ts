/**
 * API keys and the admin token. Only SHA-256 digests are held; a presented secret is hashed
 * and compared with every known digest in constant time (crypto.timingSafeEqual, no early
 * exit), so neither the answer time nor a log line reveals anything about a key.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { KeyPlan } from './plans.js'

export interface ApiKey {
  /** Label used in messages and as the rate-limit bucket; never the key itself. */
  name: string
  plan: KeyPlan
  /** SHA-256 of the key's UTF-8 bytes. */
  sha256: Buffer
}

/** SHA-256 of a secret's UTF-8 bytes. */
export const digest = (secret: string): Buffer => createHash('sha256').update(secret, 'utf8').digest()

/** The keys a service accepts. */
export class KeyRing {
  private readonly keys: readonly ApiKey[]

  constructor(keys: readonly ApiKey[]) {
    this.keys = keys
  }

  /** The key matching the presented secret, or undefined. Runs in time independent of the match. */
  identify(secret: string): ApiKey | undefined {
    return findDigest(this.keys, digest(secret))
  }

  get size(): number {
    return this.keys.length
  }
}

/** Checks a presented admin token against the configured digest in constant time. */
export function tokenMatches(expected: Buffer | null, presented: string): boolean {
  if (expected === null) return false
  return timingSafeEqual(expected, digest(presented))
}

function findDigest<T extends { sha256: Buffer }>(entries: readonly T[], presented: Buffer): T | undefined {
  let found: T | undefined
  for (const entry of entries) {
    // No early exit: every entry is compared, whatever matched.
    if (timingSafeEqual(entry.sha256, presented) && found === undefined) found = entry
  }
  return found
}
