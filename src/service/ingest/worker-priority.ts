/**
 * How the prepare workers of a large ingest give way to the thread that answers lookups
 * (Linux; elsewhere they run at the process's priority).
 *
 * 'idle' (the default) puts a worker in Linux's SCHED_IDLE class. A niceness alone lowers a
 * thread's share of a busy core, but the scheduler still treats that core as busy: a lookup's
 * client woken while the worker runs was queued behind the service's thread on the other core
 * and waited there for milliseconds (`perf sched` showed 1–8 ms), and a woken thread waited up to
 * ~3 ms for a niced worker's turn to end. A core that runs only SCHED_IDLE work counts as idle
 * when the kernel places a woken thread, and such work is preempted at once. The cost: the worker
 * gets almost no CPU while every core is busy with other work, so on a saturated machine an
 * ingest waits for lookups (which is the order this service wants).
 */
import { spawnSync } from 'node:child_process'
import { readlinkSync } from 'node:fs'
import { setPriority } from 'node:os'

/** A niceness from 0 (the process's own priority) to 19, or 'idle' (SCHED_IDLE). */
export type WorkerPriority = number | 'idle'

export const DEFAULT_WORKER_PRIORITY: WorkerPriority = 'idle'

/** Niceness used where the idle class cannot be set (no `chrt` on the PATH, or not Linux). */
export const IDLE_FALLBACK_NICE = 19

/** Whether `value` is a priority a configuration may give. */
export function isWorkerPriority(value: unknown): value is WorkerPriority {
  return value === 'idle' || (Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= 19)
}

/**
 * Lowers the calling thread's priority (a worker thread's own: Linux schedules threads on their
 * own, /proc/thread-self names this one, and lowering one's own priority needs no privilege).
 * The idle class is set with util-linux's `chrt`, as Node has no call for it. Returns what was
 * applied.
 */
export function lowerOwnPriority(priority: WorkerPriority): 'idle' | number | 'unchanged' {
  if (priority === 0) return 'unchanged'
  let tid: number
  try {
    tid = Number(readlinkSync('/proc/thread-self').split('/').pop())
    if (!Number.isSafeInteger(tid) || tid <= 0) return 'unchanged'
  } catch {
    return 'unchanged' // not Linux
  }
  if (priority === 'idle') {
    const chrt = spawnSync('chrt', ['--idle', '--pid', '0', String(tid)], { stdio: 'ignore', timeout: 5_000 })
    if (chrt.status === 0) return 'idle'
    priority = IDLE_FALLBACK_NICE
  }
  try {
    setPriority(tid, priority)
    return priority
  } catch {
    return 'unchanged'
  }
}
