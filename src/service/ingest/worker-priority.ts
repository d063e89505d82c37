/**
 * How the prepare workers of a large ingest give way to the thread that answers lookups
 * (Linux; elsewhere they run at the process's priority), and what runs them.
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
import { accessSync, constants, readlinkSync } from 'node:fs'
import { setPriority } from 'node:os'
import { delimiter, join } from 'node:path'

/** A niceness from 0 (the process's own priority) to 19, or 'idle' (SCHED_IDLE). */
export type WorkerPriority = number | 'idle'

export const DEFAULT_WORKER_PRIORITY: WorkerPriority = 'idle'

/** The environment variable that changes DEFAULT_WORKER_PRIORITY for a process (and its children). */
export const HELPER_PRIORITY_ENV = 'L9KIT_HELPER_PRIORITY'

/**
 * The priority of the service's helpers where its configuration says none: the prepare
 * workers, its own helper threads and the live stream's fan-out process. DEFAULT_WORKER_PRIORITY,
 * unless L9KIT_HELPER_PRIORITY gives "idle" or a niceness 0–19: on a machine whose cores other
 * work keeps busy, idle-class helpers get no CPU at all, and ingests and live streams wait
 * without end (the test suite, which must pass on such a machine, sets 0). A value that is
 * neither is left aside, with the problem said.
 */
export function fallbackPriority(env: NodeJS.ProcessEnv = process.env): { priority: WorkerPriority; problem?: string } {
  const value = env[HELPER_PRIORITY_ENV]
  if (value === undefined || value === '') return { priority: DEFAULT_WORKER_PRIORITY }
  const priority = value === 'idle' ? value : /^\d{1,2}$/.test(value) ? Number(value) : undefined
  if (isWorkerPriority(priority)) return { priority }
  return { priority: DEFAULT_WORKER_PRIORITY, problem: `${HELPER_PRIORITY_ENV} must be "idle" or an integer from 0 to 19 (got ${JSON.stringify(value)}); "idle" is used` }
}

/** Niceness used where the idle class cannot be set (no `chrt` on the PATH, or not Linux). */
export const IDLE_FALLBACK_NICE = 19

/**
 * What runs a prepare worker: a child process (all its threads, V8's helpers among them, run
 * at the workers' priority) or a thread of this process (buffers moved rather than copied, but
 * V8's helper threads that collect its garbage run at the service's priority).
 *
 * Measured on 2 cores (docs/service.md, sixth round): a process lowered lookups' p99 during
 * large ingests by a fifth to a third, and made a bulk load without lookups 25–35 % slower
 * (batches cross a socket, and the two processes wait on each other's reads).
 */
export type PrepareWorkerKind = 'process' | 'thread'

/** For ingestStream() and a pool: threads, the faster for a bulk load, with no lookups to protect. */
export const DEFAULT_WORKER_KIND: PrepareWorkerKind = 'thread'

/** For the ingests the service takes while it answers lookups (POST /admin/events; config `ingest_workers`). */
export const SERVICE_WORKER_KIND: PrepareWorkerKind = 'process'

/** Whether `value` is a worker kind a configuration may give. */
export const isWorkerKind = (value: unknown): value is PrepareWorkerKind => value === 'process' || value === 'thread'

/** Whether `value` is a priority a configuration may give. */
export function isWorkerPriority(value: unknown): value is WorkerPriority {
  return value === 'idle' || (Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= 19)
}

/**
 * Lowers the calling thread's priority (a worker thread's own: Linux schedules threads on their
 * own, /proc/thread-self names this one, and lowering one's own priority needs no privilege).
 * Returns what was applied.
 */
export function lowerOwnPriority(priority: WorkerPriority): 'idle' | number | 'unchanged' {
  if (priority === 0) return 'unchanged'
  const tid = ownThreadId()
  return tid === undefined ? 'unchanged' : lowerThread(tid, priority)
}

/** The calling thread's id (Linux), or undefined elsewhere. */
export function ownThreadId(): number | undefined {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop())
    return Number.isSafeInteger(tid) && tid > 0 ? tid : undefined
  } catch {
    return undefined // not Linux
  }
}

/**
 * Lowers the priority of thread `tid` of this process (Linux). The idle class is set with
 * util-linux's `chrt`, as Node has no call for it; where that fails, the niceness that stands
 * for it. Returns what was applied.
 */
export function lowerThread(tid: number, priority: WorkerPriority): 'idle' | number | 'unchanged' {
  if (priority === 0) return 'unchanged'
  if (priority === 'idle') {
    const chrt = spawnSync('chrt', ['--idle', '--pid', '0', String(tid)], { stdio: 'ignore', timeout: 5_000 })
    if (chrt.status === 0) return 'idle'
    priority = niceFor(priority)
  }
  try {
    setPriority(tid, priority)
    return priority
  } catch {
    return 'unchanged'
  }
}

/** The niceness that stands for `priority` where the idle class cannot be set. */
export const niceFor = (priority: WorkerPriority): number => (priority === 'idle' ? IDLE_FALLBACK_NICE : priority)

/**
 * What to start a prepare process (prepare-process.ts) under, so that all its threads run at
 * `priority` from their start: a program and its arguments, put before the process's own
 * command line. Linux's idle class with util-linux's `chrt`; a niceness with `nice` (added to
 * the service's own); none for 0, or where neither program is on the PATH (the caller then
 * lowers the started process's priority as it can).
 */
export function launcherFor(priority: WorkerPriority): string[] {
  if (priority === 0) return []
  if (priority === 'idle' && process.platform === 'linux' && onPath('chrt')) return ['chrt', '--idle', '0']
  return process.platform !== 'win32' && onPath('nice') ? ['nice', '-n', String(niceFor(priority))] : []
}

const found = new Map<string, boolean>()

/** Whether an executable `name` is in one of the PATH's folders (looked up once). */
function onPath(name: string): boolean {
  let is = found.get(name)
  if (is === undefined) {
    is = (process.env.PATH ?? '').split(delimiter).some((dir) => {
      try {
        accessSync(join(dir, name), constants.X_OK)
        return dir !== ''
      } catch {
        return false
      }
    })
    found.set(name, is)
  }
  return is
}
