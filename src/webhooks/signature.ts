/**
 * Standard Webhooks signatures (docs/hooks.md): the signed content is `id.timestamp.body`, the
 * key is the base64-decoded part of a `whsec_` secret, and a signature is `v1,` + the base64
 * HMAC-SHA256. A `webhook-signature` header may hold several signatures separated by spaces
 * (during a secret rotation); one that matches is enough. Used by the service to sign, and by
 * `l9kit hooks listen` and the conformance suite to verify, so it depends on nothing else.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

export const SECRET_PREFIX = 'whsec_'
/** How far a `webhook-timestamp` may be from the receiver's clock (the specification's suggestion). */
export const DEFAULT_TOLERANCE_S = 5 * 60

/** A new secret: `whsec_` + base64 of 32 random bytes. */
export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64')
}

/** The key bytes of a secret (with or without the `whsec_` prefix); null when it is not base64. */
export function secretKey(secret: string): Buffer | null {
  const text = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret
  if (text.length === 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.length % 4 !== 0) return null
  return Buffer.from(text, 'base64')
}

/** `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under the secret's key. */
export function sign(secret: string, id: string, timestamp: number, body: string | Uint8Array): string {
  const key = secretKey(secret)
  if (key === null) throw new TypeError('the secret is not whsec_ followed by base64')
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64')
  return `v1,${mac}`
}

export type Verdict =
  | { ok: true }
  | { ok: false; reason: 'missing_headers' | 'bad_timestamp' | 'stale_timestamp' | 'no_matching_signature' | 'bad_secret'; message: string }

export interface SignedHeaders {
  'webhook-id'?: string
  'webhook-timestamp'?: string
  'webhook-signature'?: string
}

/**
 * Checks a delivery's headers and raw body against the secret. `nowS` is the receiver's clock
 * in Unix seconds; a timestamp more than `toleranceS` away is refused (replay protection).
 */
export function verify(secret: string, headers: SignedHeaders, body: string | Uint8Array, nowS = Date.now() / 1000, toleranceS = DEFAULT_TOLERANCE_S): Verdict {
  const id = headers['webhook-id']
  const stamp = headers['webhook-timestamp']
  const signatures = headers['webhook-signature']
  if (!id || !stamp || !signatures) {
    return { ok: false, reason: 'missing_headers', message: 'webhook-id, webhook-timestamp and webhook-signature are all needed' }
  }
  if (!/^[0-9]{1,12}$/.test(stamp)) return { ok: false, reason: 'bad_timestamp', message: `webhook-timestamp ${JSON.stringify(stamp)} is not Unix seconds` }
  const timestamp = Number(stamp)
  if (Math.abs(nowS - timestamp) > toleranceS) {
    return { ok: false, reason: 'stale_timestamp', message: `webhook-timestamp is ${Math.round(nowS - timestamp)} s from this clock (tolerance ${toleranceS} s)` }
  }
  if (secretKey(secret) === null) return { ok: false, reason: 'bad_secret', message: 'the secret is not whsec_ followed by base64' }
  const expected = Buffer.from(sign(secret, id, timestamp, body).slice(3), 'base64')
  for (const part of signatures.split(' ')) {
    const comma = part.indexOf(',')
    if (comma === -1 || part.slice(0, comma) !== 'v1') continue
    const given = Buffer.from(part.slice(comma + 1), 'base64')
    if (given.length === expected.length && timingSafeEqual(given, expected)) return { ok: true }
  }
  return { ok: false, reason: 'no_matching_signature', message: 'no v1 signature in webhook-signature matches the body under this secret' }
}
