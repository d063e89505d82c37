/**
 * The memory hook store's registry: watched resources and hooks, each owner's in the order they
 * were added (so pages and caps cost what one owner has, not what everyone has), and listeners
 * told of every change (hooks/queue-ingested.ts keeps the matching index with them).
 */
import type { ResourceType } from '../../../schema/index.js'
import { newId } from '../hook-ids.js'
import { type HookRecord, LimitReached, type NewHook, type Page, type PageRequest, type WatchedResource } from '../hook-types.js'

/** What changed in the registry: one resource, or the hooks (any of them: added, removed, enabled, disabled). */
export type RegistryChange = { kind: 'resource-added' | 'resource-removed'; resource: WatchedResource } | { kind: 'hooks' }

/** Entries of one kind, by id and per owner in the order added, each with its sequence number (the page cursor). */
class OwnedList<T extends { id: string; owner: string }> {
  readonly byId = new Map<string, { item: T; seq: number }>()
  private readonly byOwner = new Map<string, { item: T; seq: number }[]>()
  private seq = 0

  count(owner: string): number {
    return this.byOwner.get(owner)?.length ?? 0
  }

  add(item: T): void {
    const entry = { item, seq: ++this.seq }
    this.byId.set(item.id, entry)
    let list = this.byOwner.get(item.owner)
    if (list === undefined) this.byOwner.set(item.owner, (list = []))
    list.push(entry)
  }

  remove(id: string): T | undefined {
    const entry = this.byId.get(id)
    if (entry === undefined) return undefined
    this.byId.delete(id)
    const list = this.byOwner.get(entry.item.owner)!
    list.splice(list.indexOf(entry), 1)
    if (list.length === 0) this.byOwner.delete(entry.item.owner)
    return entry.item
  }

  /** Every entry (all owners: in the order added). */
  all(owner?: string): T[] {
    if (owner !== undefined) return (this.byOwner.get(owner) ?? []).map((e) => e.item)
    return [...this.byId.values()].map((e) => e.item)
  }

  /** The owner's entries after the cursor (a sequence number), at most `limit`. */
  page(owner: string, page: PageRequest): Page<T> {
    const list = this.byOwner.get(owner) ?? []
    const after = page.cursor === null ? 0 : Number(page.cursor)
    let lo = 0
    let hi = list.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (list[mid]!.seq <= after) lo = mid + 1
      else hi = mid
    }
    const items = list.slice(lo, lo + page.limit)
    const last = items.length === 0 ? undefined : list[lo + items.length - 1]
    return { items: items.map((e) => e.item), next: last !== undefined && lo + items.length < list.length ? String(last.seq) : null }
  }
}

export class HookRegistry {
  private readonly resourceList = new OwnedList<WatchedResource>()
  private readonly hookList = new OwnedList<HookRecord>()
  private readonly listeners = new Set<(change: RegistryChange) => void>()

  get hookCount(): number {
    return this.hookList.byId.size
  }

  addResource(owner: string, type: ResourceType, value: string, limit?: number | null): WatchedResource {
    if (limit != null && this.resourceList.count(owner) >= limit) throw new LimitReached('resources', limit)
    const resource: WatchedResource = { id: newId('res'), owner, type, value }
    this.resourceList.add(resource)
    this.tell({ kind: 'resource-added', resource })
    return resource
  }

  removeResource(owner: string, id: string): boolean {
    const found = this.resourceList.byId.get(id)
    if (found === undefined || found.item.owner !== owner) return false
    this.resourceList.remove(id)
    this.tell({ kind: 'resource-removed', resource: found.item })
    return true
  }

  resources(owner?: string): WatchedResource[] {
    return this.resourceList.all(owner)
  }

  resourcePage(owner: string, page: PageRequest): Page<WatchedResource> {
    return this.resourceList.page(owner, page)
  }

  addHook(hook: NewHook, limit?: number | null): HookRecord {
    if (limit != null && this.hookList.count(hook.owner) >= limit) throw new LimitReached('hooks', limit)
    const record: HookRecord = { ...hook, eventTypes: [...hook.eventTypes], id: newId('hook'), state: 'active', disabledAt: null, disabledReason: null }
    this.hookList.add(record)
    this.tell({ kind: 'hooks' })
    return record
  }

  removeHook(owner: string, id: string): boolean {
    const found = this.hookList.byId.get(id)
    if (found === undefined || found.item.owner !== owner) return false
    this.hookList.remove(id)
    this.tell({ kind: 'hooks' })
    return true
  }

  /** The hook record itself (not a copy), any owner's. */
  hookById(id: string): HookRecord | undefined {
    return this.hookList.byId.get(id)?.item
  }

  hooks(owner?: string): HookRecord[] {
    return this.hookList.all(owner)
  }

  hookPage(owner: string, page: PageRequest): Page<HookRecord> {
    return this.hookList.page(owner, page)
  }

  /** Sets a hook's state (and when and why it was disabled); tells the listeners. */
  setState(hook: HookRecord, state: HookRecord['state'], now: number, reason: string | null): void {
    hook.state = state
    hook.disabledAt = state === 'disabled' ? now : null
    hook.disabledReason = state === 'disabled' ? reason : null
    this.tell({ kind: 'hooks' })
  }

  onChange(listener: (change: RegistryChange) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private tell(change: RegistryChange): void {
    for (const listener of this.listeners) listener(change)
  }
}
