/** The scheduling of a process's threads, as Linux shows it in /proc (the priority tests). */
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'

export interface ThreadState {
  tid: number
  nice: number
  /** 0 normal, 5 SCHED_IDLE. */
  policy: number
}

export const SCHED_IDLE = 5

/** Whether util-linux's `chrt` can be run here (else the idle class falls back to a niceness). */
export const hasChrt = process.platform === 'linux' && spawnSync('chrt', ['--version']).status === 0

/** Niceness and scheduling policy of each thread of a process (this one by default). */
export function threadsOf(pid: number | 'self' = 'self'): ThreadState[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    // Fields after the command's closing parenthesis start at field 3 (state): nice is field 19, policy 41.
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ')
    return { tid: Number(tid), nice: Number(fields[16]), policy: Number(fields[38]) }
  })
}

/**
 * The niceness this process was started with (the suite may run under `nice -n 5`): what the
 * threads a test leaves alone have, it and its children's.
 */
export const ownNice = process.platform === 'linux' ? threadsOf(process.pid).find((t) => t.tid === process.pid)!.nice : 0
