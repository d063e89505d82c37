/** The prepare workers give way to the thread that answers lookups (issue 21): Linux's idle class by default. */
import { describe, expect, it } from 'vitest'
import { PreparePool, prepareWorkerUrl } from '../../../src/service/ingest/prepare-pool.js'
import { ProcessWorker } from '../../../src/service/ingest/prepare-process.js'
import { hasChrt, ownNice, SCHED_IDLE, threadsOf as threads } from '../../support/threads.js'
import { DEFAULT_WORKER_PRIORITY, IDLE_FALLBACK_NICE, isWorkerPriority, lowerOwnPriority, type WorkerPriority } from '../../../src/service/ingest/worker-priority.js'

/** The threads a pool of one worker thread at `priority` adds, once it has answered a batch. */
async function poolThreads(priority: WorkerPriority) {
  const before = new Set(threads().map((t) => t.tid))
  const pool = new PreparePool(prepareWorkerUrl()!, 1, priority, 'thread')
  try {
    await pool.prepare({ bytes: new Uint8Array(0), items: ['{}'] })
    return threads().filter((t) => !before.has(t.tid))
  } finally {
    await pool.close()
  }
}

/** The threads of a worker process at `priority`, once it has answered a batch. */
async function processThreads(priority: WorkerPriority) {
  const worker = new ProcessWorker(prepareWorkerUrl()!, priority)
  try {
    await worker.prepare({ bytes: new Uint8Array(0), items: ['{}'] })
    return threads(worker.pid!)
  } finally {
    await worker.close()
  }
}


// A process or thread in the idle class gets almost no CPU while other work keeps every core
// busy: these tests wait for one to answer, so their bound is generous.
describe('prepare worker priority', { timeout: 300_000 }, () => {
  it('accepts "idle" or a niceness 0–19, "idle" by default', () => {
    expect(DEFAULT_WORKER_PRIORITY).toBe('idle')
    for (const ok of ['idle', 0, 10, 19]) expect(isWorkerPriority(ok)).toBe(true)
    for (const bad of ['low', -1, 20, 1.5, null, '10']) expect(isWorkerPriority(bad)).toBe(false)
    expect(lowerOwnPriority(0)).toBe('unchanged')
  })

  it.runIf(process.platform === 'linux')('starts a worker process with all its threads in the idle class (or at the lowest niceness without chrt)', async () => {
    const threadsOf = await processThreads('idle')
    expect(threadsOf.length).toBeGreaterThan(3) // the main thread, V8's helpers, libuv's…
    for (const t of threadsOf) expect(hasChrt ? t.policy : t.nice).toBe(hasChrt ? SCHED_IDLE : IDLE_FALLBACK_NICE)
    expect(threads().every((t) => t.policy === 0)).toBe(true) // this process keeps its own
  })

  it.runIf(process.platform === 'linux')('or a worker process with all its threads at a niceness, in the normal class', async () => {
    // `nice -n 10` adds to this process's own niceness (the suite may run under `nice`).
    for (const t of await processThreads(10)) expect(t).toMatchObject({ nice: Math.min(19, ownNice + 10), policy: 0 })
  })

  it.runIf(process.platform === 'linux')('puts a worker thread in the idle class (or at the lowest niceness without chrt); the thread that asked keeps its own', async () => {
    const added = await poolThreads('idle')
    const lowered = added.filter((t) => (hasChrt ? t.policy === SCHED_IDLE : t.nice === IDLE_FALLBACK_NICE))
    expect(lowered).toHaveLength(1)
    const self = threads().find((t) => t.tid === process.pid)!
    expect(self).toMatchObject({ policy: 0 })
  })

  it.runIf(process.platform === 'linux')('or a worker thread at a niceness, in the normal class', async () => {
    // (A niceness other than this process's own: threads that start meanwhile inherit that one.)
    const level = ownNice === 10 ? 12 : 10
    const added = await poolThreads(level)
    expect(added.filter((t) => t.nice === level && t.policy === 0)).toHaveLength(1)
    expect(added.some((t) => t.policy === SCHED_IDLE)).toBe(false)
  })
})
