/** The hook members of the configuration file: defaults, declared resources and hooks, and every problem with its pointer. */
import { describe, expect, it } from 'vitest'
import { ConfigError, DEFAULT_DELIVERY, defaultConfig, MemoryStore, parseConfig, startService } from '../../../src/service/index.js'
import { startReceiver, waitFor } from './support.js'

const SECRET = 'whsec_' + Buffer.alloc(32, 9).toString('base64')
const keys = (extra: Record<string, unknown> = {}) => [
  { name: 'pro', key: 'pro-key-000001', plan: 'pro', ...extra },
  { name: 'reg', key: 'reg-key-000001', plan: 'registered' },
]
const problems = (doc: Record<string, unknown>): string[] => {
  try {
    parseConfig(JSON.stringify(doc), 'hooks.json')
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return (error as ConfigError).problems
  }
  return []
}

describe('hook configuration', () => {
  it('has documented defaults; the built-in demo allows private hooks and declares nothing', () => {
    const config = parseConfig(JSON.stringify({ keys: keys() }), 'hooks.json')
    // Svix's schedule (8 attempts over about 27.5 h), its 15 s timeout, Retry-After honoured up to an hour.
    expect(config.hookDelivery).toEqual({
      timeoutMs: 15_000,
      retryScheduleMs: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
      retryAfterMaxMs: 3_600_000,
      queueLimit: 10_000,
    })
    expect(config.hookDelivery).toEqual(DEFAULT_DELIVERY)
    expect(config.allowPrivateHooks).toBe(false)
    expect(config.declared).toEqual({ resources: [], hooks: [] })
    const demo = defaultConfig()
    expect(demo.allowPrivateHooks).toBe(true)
    expect(demo.declared).toEqual({ resources: [], hooks: [] })
  })

  it('reads hook_delivery, allow_private_hooks and per-key resources and hooks (canonical values)', () => {
    const config = parseConfig(
      JSON.stringify({
        keys: keys({
          resources: [{ type: 'domain', value: 'Example.COM' }, { type: 'network', value: '10.9.8.7/8' }],
          hooks: [{ url: 'http://127.0.0.1:9/h', min_severity: 'low', event_types: ['service'], secret: SECRET }, { url: 'https://hooks.example.net/x', secret: SECRET }],
        }),
        hook_delivery: { timeout_ms: 100, attempts: 2, backoff_ms: 5, backoff_max_ms: 50, queue_limit: 7 },
        allow_private_hooks: true,
      }),
      'hooks.json',
    )
    // The members of l9kit 0.2 still work: retry n waits min(backoff_max_ms, backoff_ms × 2^(n−1)).
    expect(config.hookDelivery).toEqual({ timeoutMs: 100, retryScheduleMs: [5], retryAfterMaxMs: 3_600_000, queueLimit: 7 })
    const legacy = (members: Record<string, number>) => parseConfig(JSON.stringify({ keys: keys(), hook_delivery: members }), 'hooks.json').hookDelivery.retryScheduleMs
    expect(legacy({ attempts: 6, backoff_ms: 10, backoff_max_ms: 50 })).toEqual([10, 20, 40, 50, 50])
    expect(legacy({ attempts: 1 })).toEqual([])
    const schedule = parseConfig(JSON.stringify({ keys: keys(), hook_delivery: { retry_schedule_ms: [0, 60_000], retry_after_max_ms: 0 } }), 'hooks.json')
    expect(schedule.hookDelivery).toMatchObject({ retryScheduleMs: [0, 60_000], retryAfterMaxMs: 0, timeoutMs: 15_000 })
    expect(config.declared.resources).toEqual([
      { owner: 'pro', type: 'domain', value: 'example.com' },
      { owner: 'pro', type: 'network', value: '10.0.0.0/8' },
    ])
    expect(config.declared.hooks).toEqual([
      { owner: 'pro', url: 'http://127.0.0.1:9/h', minSeverity: 'low', eventTypes: ['service'], secret: SECRET },
      { owner: 'pro', url: 'https://hooks.example.net/x', minSeverity: 'medium', eventTypes: ['leak'], secret: SECRET },
    ])
  })

  it('reports every problem as FILE: /pointer: message, never showing a secret', () => {
    const found = problems({
      keys: [
        { name: 'pro', key: 'pro-key-000001', plan: 'pro', resources: [{ type: 'ip', value: '1.2.3' }, { type: 'dns', value: 'x' }], hooks: [{ url: 'http://10.0.0.1/', secret: SECRET }, { url: 'http://a.example/', secret: 'whsec_short' }, { url: 'http://a.example/' }] },
        { name: 'reg', key: 'reg-key-000001', plan: 'registered', hooks: [{ url: 'http://a.example/', secret: SECRET }] },
      ],
      hook_delivery: { timeout_ms: 0, attempts: 'many', retries: 3, backoff_ms: 100, backoff_max_ms: 10 },
      allow_private_hooks: 'yes',
    })
    expect(found).toEqual(expect.arrayContaining([
      'hooks.json: /keys/0/resources/0/value: "1.2.3" is not an IPv4 or IPv6 address',
      'hooks.json: /keys/0/resources/1/type: must be one of "domain", "ip", "network"',
      expect.stringMatching(/^hooks\.json: \/keys\/0\/hooks\/0\/url: refused target: 10\.0\.0\.1 is a private address/),
      'hooks.json: /keys/0/hooks/1/secret: must be whsec_ followed by the base64 of 24 to 64 bytes (value not shown)',
      expect.stringMatching(/^hooks\.json: \/keys\/0\/hooks\/2\/secret: is required in the file/),
      'hooks.json: /keys/1/hooks: hooks are for pro keys only (this key\'s plan is "registered")',
      'hooks.json: /hook_delivery/timeout_ms: must be an integer ≥ 1 (got 0)',
      'hooks.json: /hook_delivery/attempts: must be an integer ≥ 1 (got "many")',
      expect.stringMatching(/^hooks\.json: \/hook_delivery\/retries: unknown member/),
      'hooks.json: /hook_delivery/backoff_max_ms: must be at least backoff_ms (100)',
      'hooks.json: /allow_private_hooks: must be true or false (got "yes")',
    ]))
    expect(found.join('\n')).not.toContain(SECRET.slice(6, 20))
    expect(problems({ keys: keys(), hook_delivery: { retry_schedule_ms: [5, -1] } })).toEqual([
      'hooks.json: /hook_delivery/retry_schedule_ms: must be a list of at most 10000 waits in milliseconds (integers ≥ 0), one per retry (got [5,-1])',
    ])
    expect(problems({ keys: keys(), hook_delivery: { retry_schedule_ms: [5], attempts: 3 } })).toEqual([
      'hooks.json: /hook_delivery/attempts: give retry_schedule_ms or the older attempts/backoff_ms/backoff_max_ms, not both',
    ])
  })

  it('takes declared secrets of 24 to 64 bytes, as the Standard Webhooks specification asks, and refuses 23 and 65', () => {
    const declared = (bytes: number) => problems({ keys: keys({ hooks: [{ url: 'https://hooks.example.net/x', secret: 'whsec_' + Buffer.alloc(bytes, 0xa5).toString('base64') }] }) })
    for (const ok of [24, 25, 26, 32, 62, 63, 64]) expect(declared(ok), `${ok} bytes`).toEqual([])
    for (const bad of [22, 23, 65, 66]) {
      expect(declared(bad), `${bad} bytes`).toEqual(['hooks.json: /keys/0/hooks/0/secret: must be whsec_ followed by the base64 of 24 to 64 bytes (value not shown)'])
    }
  })

  it('registers declared resources and hooks at start: a declared hook receives matching events', async () => {
    const receiver = await startReceiver()
    const config = parseConfig(
      JSON.stringify({
        keys: keys({ resources: [{ type: 'domain', value: 'declared.test' }], hooks: [{ url: receiver.url, min_severity: 'info', secret: SECRET }] }),
        allow_private_hooks: true,
      }),
      'hooks.json',
    )
    const store = new MemoryStore()
    const running = await startService({ store, config, host: '127.0.0.1', port: 0 })
    try {
      expect((await running.context.hooks!.store.hooks('pro')).map((h) => h.url)).toEqual([receiver.url])
      store.ingest([{ event_type: 'leak', event_source: 'Cfg', host: 'a.declared.test', ip: '192.0.2.5', time: '2024-01-01T00:00:00Z', summary: 'declared', leak: { severity: 'low' } }])
      await waitFor('the declared hook’s delivery', () => receiver.requests.length === 1)
      expect(receiver.requests[0]!.json.summary).toBe('declared')
    } finally {
      await running.close(100)
    }
  })
})
