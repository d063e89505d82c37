/** Readers of config.ts's own members: unknown members, worker priorities (those every part shares: config-reading.ts). */
import { isWorkerPriority, type WorkerPriority } from './ingest/worker-priority.js'

import { type Problem, show } from './config-reading.js'

export function unknownMembers(obj: Record<string, unknown>, known: readonly string[], at: string, problem: Problem): void {
  for (const member of Object.keys(obj)) {
    if (!known.includes(member)) problem(`${at}/${member}`, `unknown member (known: ${known.join(', ')})`)
  }
}

/** A priority member ("idle" or a niceness 0–19), or undefined when absent or wrong (reported). */
export function readPriority(doc: Record<string, unknown>, member: string, problem: Problem): WorkerPriority | undefined {
  const priority = doc[member]
  if (priority === undefined) return undefined
  if (isWorkerPriority(priority)) return priority
  problem(`/${member}`, `must be "idle" or an integer from 0 to 19 (got ${show(priority)})`)
  return undefined
}
