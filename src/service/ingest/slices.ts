/**
 * Cooperative slicing for long synchronous work on the event loop (a large ingest): the work
 * runs in batches sized so that each takes about SLICE_MS, and between batches the loop is
 * given back, so lookups arriving meanwhile are answered within a slice, not after the whole
 * ingest.
 */

/**
 * Longest stretch of synchronous ingest work between two turns of the event loop. (At 2 ms,
 * storing a worker's answer and splitting the next batch ran as one stretch, and the
 * lookups waiting behind it took about 1 ms each.)
 */
export const SLICE_MS = 0.5

/**
 * Resolves once the event loop has polled for I/O. An immediate set during the poll phase (in
 * a worker's message or a socket's data, where ingest work resumes) runs in the same turn,
 * before any waiting request is read; the second one runs after the next poll.
 */
export function afterIoPoll(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)))
}

/** Sizes batches from the time the last ones took, and yields the event loop when a slice is used up. */
export class Slicer {
  private sliceStart = performance.now()
  /** Documents per batch: starts small, follows the measured cost per document. */
  size: number

  constructor(
    private readonly min = 16,
    private readonly max = 1024,
  ) {
    this.size = min
  }

  /** Records that a batch of `count` documents took `ms`, and adapts the batch size to it. */
  measured(count: number, ms: number): void {
    if (count === 0) return
    const perDoc = Math.max(ms / count, 1e-4)
    this.size = Math.max(this.min, Math.min(this.max, Math.floor(SLICE_MS / perDoc)))
  }

  /** Gives the event loop a turn, with a poll for I/O, when the current slice is used up. */
  async pause(): Promise<void> {
    if (performance.now() - this.sliceStart < SLICE_MS) return
    await afterIoPoll()
    this.sliceStart = performance.now()
  }
}
