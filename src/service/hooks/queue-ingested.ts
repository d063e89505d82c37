/**
 * Wires a Store's ingest to a MemoryHookStore: each new event (not a re-observation of a stored
 * one) is queued for the hooks the matching rule selects, synchronously and so in ingest order.
 * The ingest listener is attached only while at least one hook exists: with none, ingest does
 * no hook work at all (the MemoryStore skips building events for listeners when it has none).
 */
import type { IngestListener, Store } from '../store/index.js'
import type { MemoryHookStore } from '../store/memory/hook-store.js'

/** Queues new ingested events for matching hooks until the returned function is called. */
export function queueIngested(store: Store, hooks: MemoryHookStore, now: () => number = Date.now): () => void {
  const listener: IngestListener = (item) => {
    if (item.duplicate) return
    hooks.queueMatching(item.event, { fingerprint: item.event.event_fingerprint, json: item.json }, now())
  }
  let detach: (() => void) | null = null
  const sync = () => {
    if (hooks.hasHooks && detach === null) detach = store.onIngest(listener)
    else if (!hooks.hasHooks && detach !== null) {
      detach()
      detach = null
    }
  }
  const stopWatching = hooks.onHookCount(sync)
  sync()
  return () => {
    stopWatching()
    detach?.()
    detach = null
  }
}
