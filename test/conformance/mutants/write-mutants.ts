/**
 * Mutants with a service of their own: the rate limiter (each its own limiter), the hook
 * dispatcher's queue and matching (judged by the hook run: --allow-writes, the receiver), the
 * live stream's feed, and what creating and deleting makes readable.
 */
import { randomBytes } from 'node:crypto'
import { SEVERITIES, type Severity } from '../../../src/schema/index.js'
import { type ClaimedDelivery, DEMO_SECRETS, type HookRecord, MemoryHookStore, type NewEventListener, type QueuedEvent, type RegistryChange, type Store, type WatchedResource } from '../../../src/service/index.js'
import { type Answer, type Asked, demoStore, type Mutant, mutantConfig, proxiedService, service, wrapStore } from './harness.js'
import { HOOK_CHECKS, LIFECYCLE_CHECKS, LIVE_CHECKS, RATE_CHECKS } from './families.js'

/** A rate-limit mutant: a proxy over a service of its own whose anonymous plan keeps its limit. */
const rateMutant = (m: Omit<Mutant, 'start' | 'checks'>, answer: (a: Answer) => Answer): Mutant => ({
  ...m,
  checks: RATE_CHECKS,
  start: () => proxiedService({ answer: (_, a) => (a.status === 429 ? answer(a) : a) }, { config: mutantConfig(true) }),
})

/** A hook mutant: the service on a hook store of the given class (one method of MemoryHookStore wrapped). */
const hookMutant = (m: Omit<Mutant, 'start' | 'checks' | 'run'>, make: () => MemoryHookStore, wrap?: (store: Store, hooks: MemoryHookStore) => Store): Mutant => ({
  ...m,
  checks: HOOK_CHECKS,
  run: 'writes',
  start: async () => {
    const hooks = make()
    const store = await demoStore()
    return service({ store: wrap ? wrap(store, hooks) : store, hooks })
  },
})

const lower = (s: Severity): Severity => SEVERITIES[Math.min(SEVERITIES.indexOf(s) + 1, SEVERITIES.length - 1)]!

/** The hooks the matching index sees, changed by `edit` (the index reads registry() on every hook change). */
function registryEdit(edit: (hook: HookRecord) => HookRecord): () => MemoryHookStore {
  return () =>
    new (class extends MemoryHookStore {
      override registry() {
        const r = super.registry()
        return { resources: r.resources, hooks: r.hooks.map(edit) }
      }
    })()
}

/** Every owner that adds a resource also watches the whole address space. */
class WatchesEverything extends MemoryHookStore {
  override onRegistryChange(listener: (change: RegistryChange) => void): () => void {
    const seen = new Set<string>()
    return super.onRegistryChange((change) => {
      listener(change)
      if (change.kind !== 'resource-added' || seen.has(change.resource.owner)) return
      seen.add(change.resource.owner)
      for (const value of ['0.0.0.0/0', '::/0']) {
        const resource: WatchedResource = { id: `res_all${seen.size}${value.length}`, owner: change.resource.owner, type: 'network', value }
        listener({ kind: 'resource-added', resource } as RegistryChange)
      }
    })
  }
}

/** Deliveries of one ingest queued in reverse (held 200 ms: an ingest's events may come over several turns). */
class ReversesBatches extends MemoryHookStore {
  private held: [readonly string[], QueuedEvent, number][] = []
  override enqueue(hookIds: readonly string[], event: QueuedEvent, now: number): void {
    if (this.held.length === 0) setTimeout(() => this.flush(), 200)
    this.held.push([hookIds, event, now])
  }
  private flush(): void {
    const held = this.held.reverse()
    this.held = []
    for (const [ids, event, now] of held) super.enqueue(ids, event, now)
  }
}

/** Each claimed delivery changed by `edit` before it is sent. */
const claimEdit = (edit: (c: ClaimedDelivery, store: MemoryHookStore, now: number) => ClaimedDelivery | null) => () =>
  new (class extends MemoryHookStore {
    override claim(now: number, leaseMs: number, limit: number): ClaimedDelivery[] {
      return super.claim(now, leaseMs, limit).flatMap((c) => edit(c, this, now) ?? [])
    }
  })()

/** The ingest listeners see an event's host as the watched domain it merely contains (look-alikes match). */
function containsMatch(store: Store, hooks: MemoryHookStore): Store {
  return wrapStore(store, {
    onIngest: (onIngest) => (listener) =>
      onIngest((item) => {
        const host = item.event.host.toLowerCase()
        const d = hooks.registry().resources.find((r) => r.type === 'domain' && host.includes(r.value) && host !== r.value && !host.endsWith(`.${r.value}`))
        listener(d ? { ...item, event: { ...item.event, host: d.value } } : item)
      }),
  })
}

/** A live mutant: the service on a store whose new-event feed is changed by `edit` (null: dropped). */
/**
 * The stream's fan-out process runs in Linux's idle class: on a loaded machine it may take long
 * to start, so the live runs wait up to a minute (--timeout) for the stream to open.
 */
const LIVE_OPTIONS = { timeoutMs: 60_000 }

const liveMutant = (m: Omit<Mutant, 'start' | 'checks' | 'run'>, edit: (listener: NewEventListener) => NewEventListener): Mutant => ({
  ...m,
  checks: LIVE_CHECKS,
  run: 'writes',
  options: LIVE_OPTIONS,
  start: async () => service({ store: wrapStore(await demoStore(), { onNewEvent: (onNewEvent) => (listener) => onNewEvent(edit(listener)) }) }),
})

/** A lifecycle mutant: a proxy over a service of its own. */
const lifeMutant = (m: Omit<Mutant, 'start' | 'checks' | 'run'>, rules: Parameters<typeof proxiedService>[0], options: Parameters<typeof proxiedService>[1] = {}): Mutant => ({
  ...m,
  checks: LIFECYCLE_CHECKS,
  run: 'writes',
  start: () => proxiedService(rules, options),
})

/** Answers to GET requests matching `path` kept and served again for the rest of the run. */
function cacheGets(path: RegExp): (asked: Asked, a: Answer) => Answer {
  const kept = new Map<string, Answer>()
  return (asked, a) => {
    if (asked.method !== 'GET' || !path.test(asked.url)) return a
    const hit = kept.get(asked.url)
    if (hit) return hit
    if (a.status === 200) kept.set(asked.url, a)
    return a
  }
}

export const WRITE_MUTANTS: Mutant[] = [
  rateMutant({ id: 'no-x-limited-for', layer: 'rate limiter', breaks: 'a 429 has no x-limited-for', killedBy: ['rate-limit-header'] }, (a) => {
    const { 'x-limited-for': _, ...headers } = a.headers
    return { ...a, headers }
  }),
  rateMutant({ id: 'reason-too-many-requests', layer: 'rate limiter', breaks: 'a 429’s reason phrase is Too Many Requests', killedBy: ['rate-limit-reason'] }, (a) => ({ ...a, statusMessage: 'Too Many Requests' })),
  rateMutant({ id: 'wait-too-short', layer: 'rate limiter', breaks: 'x-limited-for says 1ms, less than the limiter waits', killedBy: ['rate-limit-wait'] }, (a) => ({ ...a, headers: { ...a.headers, 'x-limited-for': '1ms' } })),
  rateMutant({ id: 'no-retry-after', layer: 'HTTP headers', breaks: 'a 429 has no retry-after (the document requires it)', killedBy: ['documented-headers'] }, (a) => {
    const { 'retry-after': _, ...headers } = a.headers
    return { ...a, headers }
  }),
  // The hook dispatcher.
  hookMutant({ id: 'hook-severity-one-below', layer: 'hook dispatcher: filter', breaks: 'a hook gets leaks one severity below its minimum', killedBy: ['hook-severity-floor'] }, registryEdit((h) => ({ ...h, minSeverity: lower(h.minSeverity) }))),
  hookMutant({ id: 'hook-every-type', layer: 'hook dispatcher: filter', breaks: 'a hook gets both event types whatever it lists', killedBy: ['hook-event-types'] }, registryEdit((h) => ({ ...h, eventTypes: ['leak', 'service'] }))),
  hookMutant({ id: 'hook-watches-everything', layer: 'hook dispatcher: filter', breaks: 'a key with any resource watches every address', killedBy: ['hook-look-alikes', 'hook-unwatched'] }, () => new WatchesEverything()),
  hookMutant({ id: 'hook-contains-match', layer: 'hook dispatcher: filter', breaks: 'a domain covers any name containing it (notexample.com, example.com.evil.test)', killedBy: ['hook-look-alikes'] }, () => new MemoryHookStore(), containsMatch),
  hookMutant({ id: 'hook-reverse-order', layer: 'hook dispatcher: order', breaks: 'an ingest’s deliveries go out last first', killedBy: ['hook-order'] }, () => new ReversesBatches()),
  hookMutant({ id: 'hook-wrong-secret', layer: 'hook dispatcher: signature', breaks: 'deliveries are signed with another secret', killedBy: ['hook-signature-valid'] }, claimEdit((c) => ({ ...c, secret: `whsec_${randomBytes(24).toString('base64')}` }))),
  hookMutant({ id: 'hook-body-reformatted', layer: 'hook dispatcher: body', breaks: 'the delivered event is re-serialised, not the stored bytes', killedBy: ['hook-body'] }, claimEdit((c) => ({ ...c, body: JSON.stringify(JSON.parse(c.body), null, 1) }))),
  hookMutant({ id: 'hook-sent-twice', layer: 'hook dispatcher: retry', breaks: 'each event is queued twice, as two deliveries (a retry under a new id)', killedBy: ['hook-delivered'] }, () =>
    new (class extends MemoryHookStore {
      override enqueue(ids: readonly string[], event: QueuedEvent, now: number): void {
        super.enqueue(ids, event, now)
        super.enqueue(ids, event, now)
      }
    })(),
  ),
  hookMutant({ id: 'hook-drops-one', layer: 'hook dispatcher: retry', breaks: 'one delivery is settled as delivered without being sent', killedBy: ['hook-delivered'] }, claimEdit((c, store, now) => {
    if (!c.body.includes('"host":"deep.api.')) return c
    store.settle(c.delivery.id, { kind: 'delivered', status: 204 }, now)
    return null
  })),
  // The live stream.
  liveMutant({ id: 'live-services-as-leaks', layer: 'live stream: scope', breaks: 'service events go to /ws/leak too', killedBy: ['live-scope'] }, (listener) => (item) => listener({ ...item, leak: true })),
  liveMutant({ id: 'live-drops-one', layer: 'live stream: delivery', breaks: 'one new leak never reaches the stream', killedBy: ['live-delivers'] }, (listener) => (item) => {
    if (!item.event().summary.endsWith('-2')) listener(item)
  }),
  {
    id: 'live-filter-ignored',
    layer: 'live stream: filter',
    breaks: 'the stream’s q filter is ignored',
    killedBy: ['live-filter'],
    checks: LIVE_CHECKS,
    run: 'writes',
    options: LIVE_OPTIONS,
    // Only q goes: the run's own parameter (l9kit-conform-run) stays, so the run's events still reach the stream.
    start: () => proxiedService({ request: (asked) => (asked.url.startsWith('/ws/') ? { ...asked, url: withoutQ(asked.url) } : asked) }),
  },
  // Created and deleted objects.
  lifeMutant({ id: 'hook-read-cached', layer: 'HTTP cache', breaks: 'GET /api/hooks/:id answers from a cache after the hook is deleted', killedBy: ['deleted-gone'] }, { answer: cacheGets(/^\/api\/hooks\/hook_[^/?]+$/) }),
  lifeMutant({ id: 'resource-list-cached', layer: 'HTTP cache', breaks: 'GET /api/resources answers from a cache: a new resource is not listed', killedBy: ['created-readable'] }, { answer: cacheGets(/^\/api\/resources(\?|$)/) }),
  lifeMutant({ id: 'admin-any-token', layer: 'keys', breaks: 'POST and DELETE /admin/events take any bearer token', killedBy: ['key-required'] }, {
    request: (asked) => (asked.url.startsWith('/admin/events') && asked.headers.authorization ? { ...asked, headers: { ...asked.headers, authorization: `Bearer ${DEMO_SECRETS.admin}` } } : asked),
  }),
  {
    id: 'delete-by-tag-keeps-events',
    layer: 'store',
    breaks: 'DELETE /admin/events?tag= counts the events but keeps them',
    killedBy: ['deleted-gone'],
    checks: LIFECYCLE_CHECKS,
    run: 'writes',
    start: async () => {
      const store = await demoStore()
      return service({ store: wrapStore<Store>(store, { deleteTagged: () => async () => 1 }) })
    },
  },
]

/** `url` (a path and query) without its `q` parameter. */
function withoutQ(url: string): string {
  const parsed = new URL(url, 'http://mutant.invalid')
  parsed.searchParams.delete('q')
  return parsed.pathname + parsed.search
}
