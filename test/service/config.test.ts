import { createHash } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ConfigError, DEFAULT_PLANS, defaultConfig, DEMO_SECRETS, KeyRing, loadConfig, parseConfig, tokenMatches } from '../../src/service/index.js'
import { testTempDir } from '../support/temp.js'
import { DEFAULT_LIMITS } from '../../src/service/ratelimit/budgets.js'

const problems = (doc: unknown): string[] => {
  try {
    parseConfig(typeof doc === 'string' ? doc : JSON.stringify(doc), 'keys.json')
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return (error as ConfigError).problems
  }
  return []
}

describe('configuration file', () => {
  afterEach(() => vi.unstubAllEnvs())

  it('reads keys, admin token, plan overrides and the body limit', () => {
    // The suite runs with L9KIT_HELPER_PRIORITY=0 (vitest.config.ts): the built-in defaults without it.
    vi.stubEnv('L9KIT_HELPER_PRIORITY', '')
    const sha = createHash('sha256').update('hashed-secret-1').digest('hex')
    const config = parseConfig(
      JSON.stringify({
        keys: [
          { name: 'alice', key: 'alice-secret-1', plan: 'registered' },
          { name: 'ci', key_sha256: sha, plan: 'pro' },
        ],
        admin_token: 'admin-secret-1',
        plans: { anonymous: { subdomains: 3, rate: 0.5, burst: 1 }, pro: { rate: null, subdomains: null, resources: 20_000, hooks: null, search_pages: null, max_query_cost: null, bulk_exports: 3 }, registered: { live: true, bulk: true, search_pages: 7 } },
        max_body_bytes: 1024,
        search_page_size: 50,
        plugins: { DotEnvConfigPlugin: 'Environment files served over HTTP.' },
        live_buffer_bytes: 65536,
        lookup_cache_bytes: 0,
        max_searches: 4,
        statement_timeout_ms: 1000,
      }),
      'keys.json',
    )
    const ring = new KeyRing(config.keys)
    expect(ring.identify('alice-secret-1')).toMatchObject({ name: 'alice', plan: 'registered' })
    expect(ring.identify('hashed-secret-1')).toMatchObject({ name: 'ci', plan: 'pro' })
    expect(ring.identify('alice-secret-2')).toBeUndefined()
    expect(tokenMatches(config.adminToken, 'admin-secret-1')).toBe(true)
    expect(tokenMatches(config.adminToken, 'admin-secret-2')).toBe(false)
    expect(config.plans.anonymous).toEqual({ ...DEFAULT_PLANS.anonymous, subdomains: 3, rate: { rate: 0.5, burst: 1 } })
    expect(config.plans.registered).toEqual({ ...DEFAULT_PLANS.registered, live: true, bulk: true, searchPages: 7 })
    expect(DEFAULT_PLANS.pro.bulk && !DEFAULT_PLANS.registered.bulk && !DEFAULT_PLANS.anonymous.bulk).toBe(true)
    // Caps of watched resources and hooks per key: 100 resources for registered keys, 10 000 and 50 hooks for pro ones by default.
    expect(DEFAULT_PLANS.registered).toMatchObject({ resources: 100 })
    expect(DEFAULT_PLANS.pro).toMatchObject({ resources: 10_000, hooks: 50 })
    expect(config.plans.pro).toEqual({ ...DEFAULT_PLANS.pro, subdomains: null, rate: null, resources: 20_000, hooks: null, searchPages: null, maxQueryCost: null, bulkExports: 3 })
    // Budgets (docs/service.md, "Limits"): a query's cost per event 1 000, 2 000, 5 000 by default; the service's own bounds.
    expect([DEFAULT_PLANS.anonymous.maxQueryCost, DEFAULT_PLANS.registered.maxQueryCost, DEFAULT_PLANS.pro.maxQueryCost]).toEqual([1000, 2000, 5000])
    expect(config.limits).toEqual({ ...DEFAULT_LIMITS, maxSearches: 4, statementTimeoutMs: 1000 })
    expect(parseConfig('{}', 'keys.json').limits).toEqual(DEFAULT_LIMITS)
    // Search pages: 5, 50 and 500 by default, 20 events each.
    expect([DEFAULT_PLANS.anonymous.searchPages, DEFAULT_PLANS.registered.searchPages, DEFAULT_PLANS.pro.searchPages]).toEqual([5, 50, 500])
    expect(config.searchPageSize).toBe(50)
    expect(parseConfig('{}', 'keys.json').searchPageSize).toBe(20)
    expect([...config.pluginDescriptions]).toEqual([['DotEnvConfigPlugin', 'Environment files served over HTTP.']])
    expect(config.liveBufferBytes).toBe(65536)
    expect(parseConfig('{}', 'keys.json').liveBufferBytes).toBe(4 * 1024 * 1024)
    expect(config.lookupCacheBytes).toBe(0)
    expect(parseConfig('{}', 'keys.json').lookupCacheBytes).toBe(32 * 1024 * 1024)
    expect(config.maxBodyBytes).toBe(1024)
    expect(config.ingestWorkerPriority).toBe('idle') // the default
    expect(parseConfig('{"ingest_worker_nice": 0}', 'keys.json').ingestWorkerPriority).toBe(0)
    expect(parseConfig('{"ingest_worker_nice": 10}', 'keys.json').ingestWorkerPriority).toBe(10)
    expect(parseConfig('{"ingest_worker_nice": "idle"}', 'keys.json').ingestWorkerPriority).toBe('idle')
    expect(config.ingestWorkers).toBe('process') // the default
    expect(parseConfig('{"ingest_workers": "thread"}', 'keys.json').ingestWorkers).toBe('thread')
    expect(parseConfig('{"ingest_workers": "process"}', 'keys.json').ingestWorkers).toBe('process')
    expect(config.helperThreadPriority).toBe('idle') // the default
    expect(parseConfig('{"helper_thread_nice": 0}', 'keys.json').helperThreadPriority).toBe(0)
    expect(parseConfig('{"helper_thread_nice": 19}', 'keys.json').helperThreadPriority).toBe(19)
  })

  it('takes the helpers\' priority from L9KIT_HELPER_PRIORITY where the file gives none; a bad value is a warning', () => {
    vi.stubEnv('L9KIT_HELPER_PRIORITY', '0')
    expect(parseConfig('{}', 'keys.json')).toMatchObject({ ingestWorkerPriority: 0, helperThreadPriority: 0 })
    expect(defaultConfig()).toMatchObject({ ingestWorkerPriority: 0, helperThreadPriority: 0 })
    expect(parseConfig('{"ingest_worker_nice": "idle"}', 'keys.json')).toMatchObject({ ingestWorkerPriority: 'idle', helperThreadPriority: 0 })
    vi.stubEnv('L9KIT_HELPER_PRIORITY', '12')
    expect(defaultConfig().ingestWorkerPriority).toBe(12)
    vi.stubEnv('L9KIT_HELPER_PRIORITY', 'low')
    const config = parseConfig('{}', 'keys.json')
    expect(config.ingestWorkerPriority).toBe('idle')
    expect(config.warnings).toEqual(['L9KIT_HELPER_PRIORITY must be "idle" or an integer from 0 to 19 (got "low"); "idle" is used'])
    expect(defaultConfig().warnings).toEqual(config.warnings)
  })

  it('reports every problem as FILE: /pointer: message, never echoing a key', () => {
    const found = problems({
      keys: [
        { name: 'a', key: 'short', plan: 'gold' },
        { name: 'a', key: 'long-enough-key', key_sha256: 'x', plan: 'pro' },
        { key: 'another-long-key', plan: 'pro', extra: 1 },
        { name: 'dup', key: 'another-long-key', plan: 'pro' },
        'nope',
      ],
      plans: { anonymous: { subdomains: -1, rate: 0, burst: 1.5, live: 'yes' }, gold: {}, pro: { resources: -5, hooks: 'many', bulk: 1, search_pages: 1.5, search_work: 0, live_connections: -1 } },
      max_searches: 0,
      max_body_bytes: 0,
      search_page_size: 0,
      plugins: { '': 'x', good: 'fine', 'a/b': '' },
      live_buffer_bytes: 10,
      lookup_cache_bytes: -1,
      ingest_worker_nice: 20,
      ingest_workers: 'threads',
      helper_thread_nice: 'low',
      colour: 'blue',
    })
    expect(found).toEqual([
      'keys.json: /colour: unknown member (known: keys, admin_token, admin_token_sha256, plans, max_body_bytes, ingest_worker_nice, ingest_workers, helper_thread_nice, web_key, hook_delivery, allow_private_hooks, plugins, live_buffer_bytes, search_page_size, lookup_cache_bytes, max_searches, max_bulk_exports, bulk_idle_timeout_ms, max_live_connections, live_filter_work, statement_timeout_ms, search_timeout_ms)',
      'keys.json: /max_searches: must be an integer ≥ 1: searches that evaluate events, running or waiting, in all (got 0)',
      "keys.json: /keys/0/plan: must be one of registered, pro (got \"gold\")",
      'keys.json: /keys/0/key: must be a string of 8 to 256 printable ASCII characters without spaces (value not shown)',
      "keys.json: /keys/1/name: 'a' is already the name of /keys/0",
      'keys.json: /keys/1: give key or key_sha256, not both',
      'keys.json: /keys/2/extra: unknown member (known: name, key, key_sha256, plan, resources, hooks)',
      'keys.json: /keys/2/name: must be a non-empty string naming the key (got nothing)',
      'keys.json: /keys/3: same key as /keys/2',
      'keys.json: /keys/4: must be an object {name, key | key_sha256, plan} (got "nope")',
      'keys.json: /plans/gold: unknown member (known: anonymous, registered, pro)',
      'keys.json: /plans/anonymous/live: must be true or false: whether keys of this plan may use the live stream (got "yes")',
      'keys.json: /plans/anonymous/subdomains: must be an integer ≥ 0, or null for no cap (got -1)',
      'keys.json: /plans/anonymous/rate: must be a number of requests per second > 0, or null for no limit (got 0)',
      'keys.json: /plans/anonymous/burst: must be an integer ≥ 1 (got 1.5)',
      'keys.json: /plans/pro/bulk: must be true or false: whether keys of this plan may use the bulk export (got 1)',
      'keys.json: /plans/pro/search_pages: must be an integer ≥ 0 (the pages of /search a key of this plan may read), or null for no cap (got 1.5)',
      'keys.json: /plans/pro/search_work: must be an integer ≥ 1 (the work one search may do, in work units: docs/service.md "Limits"), or null for no bound (got 0)',
      'keys.json: /plans/pro/live_connections: must be an integer ≥ 0: the live-stream connections one key may have at once (got -1)',
      'keys.json: /plans/pro/resources: must be an integer ≥ 0 (the most watched resources one key may have), or null for no cap (got -5)',
      'keys.json: /plans/pro/hooks: must be an integer ≥ 0 (the most hooks one key may have), or null for no cap (got "many")',
      'keys.json: /max_body_bytes: must be a positive integer (got 0)',
      'keys.json: /ingest_worker_nice: must be "idle" or an integer from 0 to 19 (got 20)',
      'keys.json: /ingest_workers: must be "process" or "thread" (got "threads")',
      'keys.json: /helper_thread_nice: must be "idle" or an integer from 0 to 19 (got "low")',
      'keys.json: /plugins/: a plugin name cannot be empty',
      'keys.json: /plugins/a~1b: must be a non-empty string describing the plugin',
      'keys.json: /live_buffer_bytes: must be an integer of at least 1024 bytes (got 10)',
      'keys.json: /search_page_size: must be an integer from 1 to 1000: events in one page of /search (got 0)',
      'keys.json: /lookup_cache_bytes: must be an integer of bytes, 0 or more; 0 = keep no answers (got -1)',
    ])
    for (const line of found) expect(line).not.toMatch(/short|long-enough-key|another-long-key/)
  })

  it('refuses text that is not a JSON object', () => {
    expect(problems('{')[0]).toMatch(/^keys\.json: not valid JSON: /)
    expect(problems('[]')).toEqual(['keys.json: (document): must be a JSON object'])
  })

  it('names the file when it cannot be read', async () => {
    const dir = testTempDir('l9kit-config-')
    await expect(loadConfig(join(dir, 'missing.json'))).rejects.toThrow(/missing\.json: cannot read the file \(no such file\)/)
    writeFileSync(join(dir, 'ok.json'), '{"keys":[]}')
    expect((await loadConfig(join(dir, 'ok.json'))).keys).toEqual([])
  })

  it('has demo keys for each plan in the built-in default', () => {
    const config = defaultConfig()
    const ring = new KeyRing(config.keys)
    expect(ring.identify(DEMO_SECRETS.registered)?.plan).toBe('registered')
    expect(ring.identify(DEMO_SECRETS.pro)?.plan).toBe('pro')
    expect(tokenMatches(config.adminToken, DEMO_SECRETS.admin)).toBe(true)
  })
})
