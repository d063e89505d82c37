/**
 * Finished /host and /domain answers, kept while the store says nothing changed (its
 * `version`, see store/types.ts): a repeated lookup then writes one prebuilt buffer instead of
 * collecting the events and copying their bytes into a new answer. That copy, into memory
 * not touched for a while, was most of what a lookup cost beyond a bare server (docs/service.md).
 * An answer is kept with the version it was built at. Once the version moved on, a /domain
 * answer is dropped when next asked for (or pushed out by newer ones); a /host answer stays
 * while the store says nothing was stored for its address since (Store.hostVersion), so an
 * ongoing ingest of other addresses does not turn every host lookup into a rebuilt one.
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
  /** The store's version when it was built. */
  builtAt: number
  /** What it depends on, for `stillRight` (the canonical address of a /host answer). */
  scope: string | undefined
}

/** Whether an answer about `scope`, built at version `builtAt`, is still right now. */
export type StillRight = (scope: string, builtAt: number) => boolean

export class AnswerCache {
  private readonly kept = new Map<string, KeptAnswer>()
  private bytes = 0

  constructor(
    private readonly limits: Readonly<AnswerCacheLimits> = ANSWER_CACHE_LIMITS,
    private readonly stillRight?: StillRight,
  ) {}

  /** The answer kept for `key` if it is right at the store's `version`; one that is not is dropped. */
  get(key: string, version: number): KeptAnswer | undefined {
    const kept = this.kept.get(key)
    if (kept === undefined || kept.builtAt === version) return kept
    if (kept.scope !== undefined && this.stillRight?.(kept.scope, kept.builtAt)) return kept
    this.drop(key)
    return undefined
  }

  /** Keeps a copy of `body` (so it holds no larger buffer it was cut from), built at `version`, about `scope`. */
  set(key: string, version: number, body: Uint8Array, scope?: string): void {
    if (body.length > this.limits.answerBytes) return
    this.drop(key)
    const copy = Buffer.from(body)
    this.kept.set(key, { body: copy, headers: lookupHeaders(copy.length), builtAt: version, scope })
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
