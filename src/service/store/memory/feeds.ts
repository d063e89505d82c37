/**
 * The memory store's listeners: ingest listeners (every valid document, duplicates included:
 * alert hooks) and new-event listeners (the live stream). Nothing is built for them when none is
 * attached, and a new event is parsed only if a listener asks for its object.
 */
import type { Event } from '../../../schema/index.js'
import { jsonOf, type Prepared } from '../prepare.js'
import type { IngestListener, NewEvent, NewEventFeed, NewEventListener } from '../types.js'

export class Feeds {
  private readonly ingest = new Set<IngestListener>()
  private readonly fresh = new Set<NewEventListener>()

  onIngest(listener: IngestListener): () => void {
    this.ingest.add(listener)
    return () => this.ingest.delete(listener)
  }

  onNewEvent(listener: NewEventListener): NewEventFeed {
    // A new Set member per call, so the same function attached twice is told twice and stopped apart.
    const own: NewEventListener = (item) => listener(item)
    this.fresh.add(own)
    return { ready: Promise.resolve(), stop: () => void this.fresh.delete(own) }
  }

  /** Tells the listeners about a stored document (`bytes`: its stored bytes, when it was new). */
  stored(prepared: Prepared, duplicate: boolean, bytes: () => Uint8Array): void {
    if (this.ingest.size === 0 && (duplicate || this.fresh.size === 0)) return
    let parsed = prepared.event
    const event = () => (parsed ??= JSON.parse(jsonOf(prepared)) as Event)
    if (this.ingest.size > 0) {
      const json = jsonOf(prepared)
      for (const listener of this.ingest) listener({ event: event(), json, duplicate })
    }
    if (duplicate || this.fresh.size === 0) return
    const item: NewEvent = { bytes: bytes(), leak: prepared.leak, event }
    for (const listener of this.fresh) listener(item)
  }
}
