/**
 * Finished /host and /domain answers, kept while the store says nothing changed (its
 * `version`, see store/types.ts): a repeated lookup then writes one prebuilt buffer instead of
 * collecting the events and copying their bytes into a new answer. That copy, into memory
 * not touched for a while, was most of what a lookup cost beyond a bare server (docs/service.md).
 * Any ingest that stores something changes the version and so drops every kept answer.
 */
import { lookupHeaders } from './reply.js'

/** Bounds of one cache (one per route). */
export interface AnswerCacheLimits {
  /** Answers kept at most; the oldest kept goes first. */
  entries: number
  /** Bytes of kept answers at most. */
  bytes: number
  /** Larger answers are never kept (they are rare, and copying dwarfs nothing for them). */
  answerBytes: number
}

export const ANSWER_CACHE_LIMITS: Readonly<AnswerCacheLimits> = Object.freeze({ entries: 2048, bytes: 16 * 1024 * 1024, answerBytes: 512 * 1024 })

/** A kept answer: its bytes and its 200 headers as the flat list writeHead takes. */
export interface KeptAnswer {
  body: Buffer
  headers: readonly string[]
}

export class AnswerCache {
  private readonly kept = new Map<string, KeptAnswer>()
  private version = NaN
  private bytes = 0

  constructor(private readonly limits: Readonly<AnswerCacheLimits> = ANSWER_CACHE_LIMITS) {}

  /** The answer kept for `key` at the store's `version`; a new version empties the cache. */
  get(key: string, version: number): KeptAnswer | undefined {
    if (version !== this.version) {
      this.kept.clear()
      this.bytes = 0
      this.version = version
      return undefined
    }
    return this.kept.get(key)
  }

  /** Keeps a copy of `body` (so it holds no larger buffer it was cut from) if it was built at the current version. */
  set(key: string, version: number, body: Uint8Array): void {
    if (version !== this.version || body.length > this.limits.answerBytes) return
    this.drop(key)
    const copy = Buffer.from(body)
    this.kept.set(key, { body: copy, headers: lookupHeaders(copy.length) })
    this.bytes += copy.length
    for (const oldest of this.kept.keys()) {
      if (this.kept.size <= this.limits.entries && this.bytes <= this.limits.bytes) break
      this.drop(oldest)
    }
  }

  /** Number of kept answers (tests). */
  get size(): number {
    return this.kept.size
  }

  private drop(key: string): void {
    const old = this.kept.get(key)
    if (old === undefined) return
    this.bytes -= old.body.length
    this.kept.delete(key)
  }
}

