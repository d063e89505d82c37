/**
 * Issue 33: matching at scale. One key watching more than 10 000 networks made every ingest
 * about 30 times slower for everyone: a cache of parsed networks was cleared past 10 000 entries
 * and matching scanned every resource of every key with a hook. Matching an event must do no
 * work per watched resource of other keys. Checked by what runs, not by time (the speed is in
 * `npm run bench -- hook-matching`).
 */
import ipaddr from 'ipaddr.js'
import { describe, expect, it, vi } from 'vitest'
import { canonicalResource, MemoryHookStore, MemoryStore, queueIngested } from '../../../src/service/index.js'

describe('matching at scale', () => {
  it('matches an ingested event without touching the 20 000 networks other keys watch (no re-parse, no cache to clear)', () => {
    const store = new MemoryStore()
    const hooks = new MemoryHookStore()
    const stop = queueIngested(store, hooks)
    const secret = 'whsec_' + Buffer.alloc(32).toString('base64')
    const mine = hooks.addHook({ owner: 'alice', url: 'http://127.0.0.1:9/', minSeverity: 'info', eventTypes: ['leak', 'service'], secret })
    hooks.addResource('alice', 'domain', 'watched.test')
    // 200 other keys with a hook each and 100 networks each, prefix lengths /8 to /32 and /32 to /128.
    for (let k = 0; k < 200; k++) {
      const owner = `key${k}`
      hooks.addHook({ owner, url: 'http://127.0.0.1:9/', minSeverity: 'info', eventTypes: ['leak', 'service'], secret })
      for (let n = 0; n < 100; n++) {
        const i = k * 100 + n
        const value = i % 2 === 0 ? `10.${(i >> 8) & 255}.${i & 255}.0/${8 + (i % 25)}` : `2001:db8:${(i & 0xffff).toString(16)}::/${32 + (i % 97)}`
        const c = canonicalResource('network', value)
        if (!c.ok) throw new Error(c.reason)
        hooks.addResource(owner, 'network', c.value)
      }
    }
    expect(hooks.resources().length).toBe(20_001)
    const parse = vi.spyOn(ipaddr, 'parseCIDR')
    try {
      store.ingest(Array.from({ length: 20 }, (_, i) => ({ event_type: 'service', event_source: 'Scale', host: `h${i}.watched.test`, ip: `192.0.2.${i + 1}`, port: '80', time: '2024-01-01T00:00:00Z' })))
      expect(parse).not.toHaveBeenCalled()
    } finally {
      parse.mockRestore()
      stop()
    }
    expect(hooks.deliveries(mine.id)).toHaveLength(20)
    expect(hooks.pendingCount()).toBe(20)
  })
})
