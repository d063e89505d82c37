/**
 * Wires a Store's ingest to a MemoryHookStore: each new event (not a re-observation of a stored
 * one) is queued for the hooks the matching index selects, synchronously and so in ingest order.
 * The index follows the registry change by change. The ingest listener is attached only while
 * at least one hook exists: with none, ingest does no hook work at all (the MemoryStore skips
 * building events for listeners when it has none).
 */
import type { IngestListener, Store } from '../store/index.js'
import type { MemoryHookStore, RegistryChange } from '../store/memory/hook-store.js'
import { MatchIndex } from './match-index.js'

/** Queues new ingested events for matching hooks until the returned function is called. */
export function queueIngested(store: Store, hooks: MemoryHookStore, now: () => number = Date.now): () => void {
  const index = new MatchIndex()
  const registry = hooks.registry()
  for (const resource of registry.resources) index.addResource(resource)
  index.setHooks(registry.hooks)

  const listener: IngestListener = (item) => {
    if (item.duplicate) return
    const selected = index.select(item.event)
    if (selected.length === 0) return
    const ids = selected.map((h) => h.id)
    hooks.enqueue(ids, { fingerprint: item.event.event_fingerprint, json: item.json }, now())
  }
  let detach: (() => void) | null = null
  const sync = () => {
    if (hooks.hasHooks && detach === null) detach = store.onIngest(listener)
    else if (!hooks.hasHooks && detach !== null) {
      detach()
      detach = null
    }
  }
  const follow = (change: RegistryChange) => {
    if (change.kind === 'resource-added') index.addResource(change.resource)
    else if (change.kind === 'resource-removed') index.removeResource(change.resource)
    else {
      index.setHooks(hooks.registry().hooks)
      sync()
    }
  }
  const stopWatching = hooks.onRegistryChange(follow)
  sync()
  return () => {
    stopWatching()
    detach?.()
    detach = null
  }
}
