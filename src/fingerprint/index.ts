/**
 * `event_fingerprint`, versions 1 and 2, as the original computes it (see docs/specification.md):
 * one FNV-1 32-bit hasher fed with `event_source` and summary lines, its big-endian state
 * appended after selected steps to a 32-byte buffer, written as 64 lower-case hex.
 */
import { FNV_OFFSET, fnv1 } from './fnv.js'
import { contentEnd, newlineAt, startsWithLower } from './lines.js'

/** Lines skipped by version 1 (compared lower-case). */
const SKIP_V1 = ['date:']
/** Lines skipped by version 2. The original also lists `x-v-Cache:`, which can never match a lower-cased line. */
const SKIP_V2 = ['date:', 'last-modified:', 'etag:', 'x-cache:', 'x-amz', 'via:', 'expires:', 'cf-ray:']

/** The UTF-8 bytes of a text, in a buffer reused from call to call (fingerprints are computed per event). */
let scratch = Buffer.allocUnsafe(64 * 1024)
function utf8(text: string): Buffer {
  if (text.length * 3 > scratch.length) scratch = Buffer.allocUnsafe(text.length * 3)
  return scratch.subarray(0, scratch.write(text, 0, 'utf8'))
}

/** The 32-byte output, reused: each fingerprint is written out as hex before the next starts. */
class StateBuffer {
  private readonly bytes = Buffer.alloc(32)
  length = 0
  append(state: number): void {
    this.bytes.writeUInt32BE(state, this.length)
    this.length += 4
  }
  hex(): string {
    return this.bytes.toString('hex', 0, this.length)
  }
}
const state = new StateBuffer()

function skipped(bytes: Uint8Array, from: number, to: number, list: string[]): boolean {
  for (let i = 0; i < list.length; i++) if (startsWithLower(bytes, from, to, list[i]!)) return true
  return false
}

/** The event fingerprint of a source and a summary: 64 lower-case hex characters. Version 1 by default. */
export function eventFingerprint(source: string, summary: string, version: 1 | 2 = 1): string {
  const out = state
  out.length = 0
  let h = fnv1(FNV_OFFSET, utf8(source))
  out.append(h)
  const sum = utf8(summary) // after the source: both use the scratch buffer
  if (sum.length >= 2) {
    h = fnv1(h, sum, 0, 2)
    out.append(h)
  }
  // Line by line (see lines.ts); version 1 stops reading lines once its slots are full.
  if (version === 1) {
    for (let from = 0; out.length < 28; ) {
      const nl = newlineAt(sum, from)
      const to = contentEnd(sum, from, nl)
      if (!skipped(sum, from, to, SKIP_V1)) {
        h = fnv1(h, sum, from, to)
        out.append(h)
      }
      if (nl === sum.length) break
      from = nl + 1
    }
    while (out.length < 28) out.append(h)
    out.append(fnv1(h, sum))
  } else {
    for (let from = 0; ; ) {
      const nl = newlineAt(sum, from)
      const to = contentEnd(sum, from, nl)
      if (!skipped(sum, from, to, SKIP_V2)) {
        h = fnv1(h, sum, from, to)
        if (out.length < 28) out.append(h)
      }
      if (nl === sum.length) break
      from = nl + 1
    }
    while (out.length < 32) out.append(h)
  }
  return out.hex()
}
