/**
 * Cooperative slicing for long synchronous work on the event loop (a large ingest): the work
 * runs in batches sized so that everything done between two turns of the event loop takes
 * about one slice, and between slices the loop is given back, so lookups arriving meanwhile are
 * answered within a slice, not after the whole ingest.
 */

/** Longest stretch of synchronous ingest work between two turns of the event loop, while no request comes in. */
export const SLICE_MS = 0.5

/**
 * The same while requests are coming in. A lookup that arrives as a slice starts waits for all
 * of it: at 0.5 ms that alone was about 3 × an idle lookup's p99. Shorter slices all the time
 * cost a bulk load without lookups 10–15 % (one more turn of the event loop each).
 */
export const BUSY_SLICE_MS = 0.25

/** Requests this process has begun to answer (http/server.ts counts them): the event loop is shared, so any request waits behind a slice. */
let requestsSeen = 0

/** Counts a request the service began to answer (tells ingest slices that someone is waiting for the event loop). */
export function noteRequest(): void {
  requestsSeen++
}

/**
 * Resolves once the event loop has polled for I/O. An immediate set during the poll phase (in
 * a worker's message or a socket's data, where ingest work resumes) runs in the same turn,
 * before any waiting request is read; the second one runs after the next poll.
 */
export function afterIoPoll(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)))
}

/**
 * Sizes batches from the time the last ones took, and yields the event loop when a slice is
 * used up. A slice is everything done since the last yield, whoever did it: a batch sized by
 * room() fits in what is left of it, not in a whole slice. Slices are short while requests come
 * in (BUSY_SLICE_MS), else SLICE_MS.
 */
export class Slicer {
  private sliceStart = performance.now()
  private sliceMs = SLICE_MS
  private requestsAtYield = requestsSeen
  /** Measured cost of one document (starts as if `min` documents took a whole slice). */
  private msPerDoc: number

  constructor(
    private readonly min = 16,
    private readonly max = 1024,
  ) {
    this.msPerDoc = SLICE_MS / min
  }

  /** Documents per batch that takes a whole slice. */
  get size(): number {
    return this.fit(this.sliceMs)
  }

  /** Documents that fit in what is left of the current slice (at least `min`: pause() first). */
  room(): number {
    return this.fit(this.sliceMs - (performance.now() - this.sliceStart))
  }

  /** Records that a batch of `count` documents took `ms`, and adapts the batch size to it. */
  measured(count: number, ms: number): void {
    if (count > 0) this.msPerDoc = Math.max(ms / count, 1e-4)
  }

  /** Gives the event loop a turn, with a poll for I/O, when not even `min` more documents fit in the slice. */
  async pause(): Promise<void> {
    if (performance.now() - this.sliceStart + this.min * this.msPerDoc <= this.sliceMs) return
    await afterIoPoll()
    this.sliceStart = performance.now()
    this.sliceMs = requestsSeen !== this.requestsAtYield ? BUSY_SLICE_MS : SLICE_MS
    this.requestsAtYield = requestsSeen
  }

  private fit(ms: number): number {
    return Math.max(this.min, Math.min(this.max, Math.floor(ms / this.msPerDoc)))
  }
}
