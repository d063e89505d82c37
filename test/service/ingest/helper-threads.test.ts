/** The service process's own helper threads at the workers' priority (issue 21, seventh round). */
import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { IDLE_FALLBACK_NICE, type WorkerPriority } from '../../../src/service/ingest/worker-priority.js'
import { hasChrt, ownNice, SCHED_IDLE, type ThreadState } from '../../support/threads.js'

const moduleUrl = new URL('../../../src/service/ingest/helper-threads.ts', import.meta.url).href
const threadsUrl = new URL('../../support/threads.ts', import.meta.url).href

interface Seen {
  lowered: number
  main: number
  threads: ThreadState[]
}

/**
 * A fresh node process that lowers its helper threads to `priority` and reports each thread's
 * niceness and policy (in a child: the change cannot be undone, and must not touch the tests').
 */
function lowerIn(priority: WorkerPriority, env: NodeJS.ProcessEnv = process.env): Seen {
  const script = `
    const { lowerHelperThreads } = await import(${JSON.stringify(moduleUrl)})
    const { threadsOf } = await import(${JSON.stringify(threadsUrl)})
    const lowered = lowerHelperThreads(${JSON.stringify(priority)})
    console.log(JSON.stringify({ lowered, main: process.pid, threads: threadsOf() }))
  `
  // tsx compiles the sources first: long on a busy machine, so a generous bound (the test's is above it).
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 240_000, env })
  if (run.status !== 0) throw new Error(`the child failed: ${run.stderr}`)
  return JSON.parse(run.stdout) as Seen
}


describe.runIf(process.platform === 'linux')('lowerHelperThreads', { timeout: 300_000 }, () => {
  it('puts every other thread of the process in the idle class (or at the lowest niceness without chrt), not the calling one', () => {
    const seen = lowerIn('idle')
    const others = seen.threads.filter((t) => t.tid !== seen.main)
    expect(others.length).toBeGreaterThanOrEqual(4) // V8's platform threads at least
    for (const t of others) expect(hasChrt ? t.policy : t.nice).toBe(hasChrt ? SCHED_IDLE : IDLE_FALLBACK_NICE)
    expect(seen.lowered).toBe(others.length)
    expect(seen.threads.find((t) => t.tid === seen.main)).toMatchObject({ nice: ownNice, policy: 0 })
  })

  it('falls back to the lowest niceness where chrt cannot be run', () => {
    const seen = lowerIn('idle', { ...process.env, PATH: '/nonexistent' })
    const others = seen.threads.filter((t) => t.tid !== seen.main)
    for (const t of others) expect(t).toMatchObject({ nice: IDLE_FALLBACK_NICE, policy: 0 })
    expect(seen.lowered).toBe(others.length)
    expect(seen.threads.find((t) => t.tid === seen.main)).toMatchObject({ nice: ownNice, policy: 0 })
  })

  it('or at a niceness, in the normal class', () => {
    const seen = lowerIn(10)
    const others = seen.threads.filter((t) => t.tid !== seen.main)
    for (const t of others) expect(t).toMatchObject({ nice: 10, policy: 0 })
    expect(seen.lowered).toBe(others.length)
    expect(seen.threads.find((t) => t.tid === seen.main)).toMatchObject({ nice: ownNice, policy: 0 })
  })

  it('leaves every thread as it is for 0', () => {
    const seen = lowerIn(0)
    expect(seen.lowered).toBe(0)
    for (const t of seen.threads) expect(t).toMatchObject({ nice: ownNice, policy: 0 })
  })
})
