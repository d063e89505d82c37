/**
 * What the service's thread goes through during the stall bench's ingests (ingest-stall.ts):
 * its GC pauses, its event-loop delay, and (Linux) how long it ran and how long it waited for
 * a core.
 */
import { readFileSync } from 'node:fs'
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks'

/** What the main thread did during the sliced ingests: its GC pauses, its longest event-loop blocks, its time on a core. */
export interface MainThreadLog {
  gcCount: number
  gcTotalMs: number
  gcMaxMs: number
  /** Pauses of at least 1 ms, by kind (minor = scavenge, major = mark-compact, …). */
  gcOver1ms: Record<string, { count: number; ms: number }>
  /** Event-loop delay (monitorEventLoopDelay, 1 ms resolution): max and p99 (of the ingest with the highest). */
  loopMaxMs: number
  loopP99Ms: number
  /** Linux (/proc/thread-self/schedstat): ms this thread ran, and ms it was ready to run but waited for a core; NaN elsewhere. */
  ranMs: number
  waitedMs: number
}

/** [ns on a core, ns waiting for one] of the calling thread, from Linux's schedstat. */
export function schedstat(): [number, number] {
  try {
    const [ran, waited] = readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ').map(Number)
    return [ran!, waited!]
  } catch {
    return [NaN, NaN]
  }
}

/** This thread's ms on a core and ms waiting for one since a schedstat() reading. */
export function since([ran0, waited0]: [number, number]): { ranMs: number; waitedMs: number } {
  const [ran, waited] = schedstat()
  return { ranMs: (ran - ran0) / 1e6, waitedMs: (waited - waited0) / 1e6 }
}

// Node's perf_hooks.constants.NODE_PERFORMANCE_GC_* (the values of a gc entry's detail.kind).
const GC_KINDS: Record<number, string> = { 1: 'minor', 4: 'major', 8: 'incremental', 16: 'weak callbacks' }

/**
 * Starts recording this thread's GC pauses, event-loop delay and time on a core;
 * pause()/resume() leave out what happens in between (the bench's own work); stop() returns
 * what was seen.
 */
export function watchMainThread(): { pause(): void; resume(): void; stop(): MainThreadLog } {
  const log: MainThreadLog = { gcCount: 0, gcTotalMs: 0, gcMaxMs: 0, gcOver1ms: {}, loopMaxMs: 0, loopP99Ms: 0, ranMs: 0, waitedMs: 0 }
  const entries: { start: number; ms: number; kind: number }[] = []
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) entries.push({ start: e.startTime, ms: e.duration, kind: (e as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0 })
  })
  observer.observe({ entryTypes: ['gc'] })
  // One event-loop delay histogram per span (one enabled again would count the time it was off
  // as one long delay): the log has the largest max and p99 of any span.
  let loop = monitorEventLoopDelay({ resolution: 1 })
  const spans: [number, number][] = []
  let cpu0: [number, number] | undefined
  const resume = () => {
    loop = monitorEventLoopDelay({ resolution: 1 })
    loop.enable()
    cpu0 = schedstat()
    spans.push([performance.now(), Infinity])
  }
  const pause = () => {
    loop.disable()
    log.loopMaxMs = Math.max(log.loopMaxMs, loop.max / 1e6)
    log.loopP99Ms = Math.max(log.loopP99Ms, loop.percentile(99) / 1e6)
    const cpu = since(cpu0!)
    log.ranMs += cpu.ranMs
    log.waitedMs += cpu.waitedMs
    spans.at(-1)![1] = performance.now()
  }
  resume()
  return {
    pause,
    resume,
    stop() {
      pause()
      observer.disconnect()
      for (const e of entries) {
        if (!spans.some(([from, to]) => e.start >= from && e.start <= to)) continue
        log.gcCount++
        log.gcTotalMs += e.ms
        log.gcMaxMs = Math.max(log.gcMaxMs, e.ms)
        if (e.ms < 1) continue
        const k = (log.gcOver1ms[GC_KINDS[e.kind] ?? 'other'] ??= { count: 0, ms: 0 })
        k.count++
        k.ms += e.ms
      }
      return log
    },
  }
}
