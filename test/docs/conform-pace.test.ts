/**
 * The README's word on how long `l9kit conform` takes holds: the suite paces itself at one
 * request per second, so its time is its number of requests. A run with the README's options
 * (a key, `--domain example.com`) against the reference service as `npm start` serves it (demo
 * data, default plans) is counted here without the pacing (`rate: 'auto'`, the keyed plans'
 * limits raised so that nothing waits), and the count must be the README's within a quarter.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { runSuite } from '../../src/conformance/index.js'
import { defaultConfig, DEMO_SECRETS, loadBundled, MemoryStore, type RunningService, startService } from '../../src/service/index.js'
import { ROOT } from '../corpus/files.js'

let service: RunningService

beforeAll(async () => {
  const store = new MemoryStore()
  await loadBundled(store)
  const config = defaultConfig()
  config.plans.registered.rate = { rate: 1000, burst: 1000 }
  config.plans.pro.rate = { rate: 1000, burst: 1000 }
  service = await startService({ store, config, host: '127.0.0.1', port: 0 })
})

afterAll(async () => {
  await service?.close()
})

it("makes about as many requests as the README says (its minutes at one request a second)", async () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const said = /a run makes about (\d+) requests/.exec(readme)
  expect(said, 'README.md: "a run makes about N requests"').not.toBeNull()
  const report = await runSuite({ baseUrl: service.url, apiKey: DEMO_SECRETS.pro, domains: ['example.com'], rate: 'auto' })
  const stated = Number(said![1])
  console.info(`conform with the README's options against the demo service: ${report.requests} requests`)
  expect(Math.abs(report.requests - stated), `${report.requests} requests, the README says about ${stated}`).toBeLessThanOrEqual(stated / 4)
})
