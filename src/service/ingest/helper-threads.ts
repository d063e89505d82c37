/**
 * The service process's own helper threads at the prepare workers' priority (issue 21, seventh
 * round). V8 runs the garbage collection and compilation of every isolate in a process on a
 * few platform threads of that process, at its priority; during a large ingest they ran, in
 * short bursts, about a twelfth of a core, and each burst could take the core of the thread
 * that answers lookups, or of the clients waiting for those answers (`perf sched`: about half
 * of the slow lookups overlapped such a wait and no pause of the service's thread). In
 * the idle class they run only on a core nothing else wants, as the prepare workers do.
 *
 * The cost: a collection on the service's thread shares its work with these helpers and waits
 * for the ones that began a part of it. On a machine whose every core is kept busy by other
 * work, a helper in the idle class waits long for a core, and so may that collection; set the
 * configuration's `helper_thread_nice` to 0 there (docs/service.md).
 */
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { lowerThread, niceFor, ownThreadId, type WorkerPriority } from './worker-priority.js'

/** Linux's SCHED_IDLE, as /proc/…/stat gives a thread's policy. */
const SCHED_IDLE = 5

/**
 * Lowers every thread of this process but the calling one to `priority` (Linux; elsewhere it
 * does nothing): those present when it is called, which, called early from the thread that
 * answers lookups, are Node's and V8's helpers (and libuv's pool threads, if already started).
 * An unprivileged thread cannot leave the idle class again, so this lasts for the process.
 * Returns how many threads are now at that priority.
 */
export function lowerHelperThreads(priority: WorkerPriority): number {
  const self = priority === 0 ? undefined : ownThreadId()
  if (self === undefined) return 0
  const others = threadIds().filter((tid) => tid !== self)
  if (priority === 'idle' && others.length > 0) {
    // One `sh` for all of them: every process started forks this one, which costs time in
    // proportion to what the service holds (prepare-pool.ts). A thread gone meanwhile is skipped.
    const script = 'for t do chrt --idle --pid 0 "$t"; done'
    spawnSync('/bin/sh', ['-c', script, 'sh', ...others.map(String)], { stdio: 'ignore', timeout: 10_000 })
    const idle = others.filter((tid) => policyOf(tid) === SCHED_IDLE).length
    if (idle > 0) return idle
  }
  // A niceness, or the one that stands for the idle class where `chrt` is missing or refused.
  const nice = niceFor(priority)
  return others.filter((tid) => lowerThread(tid, nice) !== 'unchanged').length
}

/** The ids of this process's threads (none where /proc is missing). */
function threadIds(): number[] {
  try {
    return readdirSync('/proc/self/task').map(Number)
  } catch {
    return []
  }
}

/** A thread's scheduling policy (field 41 of its stat; the fields after the name start at 3). */
function policyOf(tid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
    return Number(stat.slice(stat.lastIndexOf(') ') + 2).split(' ')[38])
  } catch {
    return undefined
  }
}
