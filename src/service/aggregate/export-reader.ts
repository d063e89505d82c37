/**
 * The bulk export's reading of the store: its events in batches for the line maker (at most
 * BATCH_EVENTS events or BATCH_BYTES bytes each). A store whose answer can be read a batch at a
 * time (BatchedIterable: the memory store) is read so, with one await per store batch; any other
 * event by event. Either way the events and their order are the same.
 */
import type { BatchedIterable, SeenEvent } from '../store/types.js'

/** Events per batch, and bytes: a batch is complete when either is reached. */
export const BATCH_EVENTS = 512
export const BATCH_BYTES = 1 << 20

/** Up to a batch of events; `final` when the store has no more. */
export type Batch = { events: SeenEvent[]; final: boolean }

export interface EventReader {
  read(): Promise<Batch>
  /** Ends the store's read early (the client went away). */
  close(): Promise<void>
}

export function eventReader(items: AsyncIterable<SeenEvent>): EventReader {
  return isBatched(items) ? new BatchedReader(items.batches()[Symbol.asyncIterator]()) : new SingleReader(items[Symbol.asyncIterator]())
}

const isBatched = <T>(items: AsyncIterable<T>): items is BatchedIterable<T> => typeof (items as Partial<BatchedIterable<T>>).batches === 'function'

class SingleReader implements EventReader {
  constructor(private readonly source: AsyncIterator<SeenEvent>) {}

  async read(): Promise<Batch> {
    const events: SeenEvent[] = []
    let bytes = 0
    while (events.length < BATCH_EVENTS && bytes < BATCH_BYTES) {
      const next = await this.source.next()
      if (next.done) return { events, final: true }
      events.push(next.value)
      bytes += next.value.json.length
    }
    return { events, final: false }
  }

  async close(): Promise<void> {
    await this.source.return?.()
  }
}

class BatchedReader implements EventReader {
  /** The store's current batch and how far it was read. */
  private held: SeenEvent[] = []
  private at = 0

  constructor(private readonly source: AsyncIterator<SeenEvent[]>) {}

  async read(): Promise<Batch> {
    const events: SeenEvent[] = []
    let bytes = 0
    while (events.length < BATCH_EVENTS && bytes < BATCH_BYTES) {
      if (this.at === this.held.length) {
        const next = await this.source.next()
        if (next.done) return { events, final: true }
        this.held = next.value
        this.at = 0
        continue
      }
      const event = this.held[this.at++]!
      events.push(event)
      bytes += event.json.length
    }
    return { events, final: false }
  }

  async close(): Promise<void> {
    this.held = []
    await this.source.return?.()
  }
}
