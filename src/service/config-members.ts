/** Readers shared by the configuration file's parts (config.ts): members, priorities, values shown in messages. */
import { isWorkerPriority, type WorkerPriority } from './ingest/worker-priority.js'

/** Reports one problem of the file: its JSON pointer and what is wrong. */
export type Problem = (pointer: string, message: string) => void

export function unknownMembers(obj: Record<string, unknown>, known: readonly string[], at: string, problem: Problem): void {
  for (const member of Object.keys(obj)) {
    if (!known.includes(member)) problem(`${at}/${member}`, `unknown member (known: ${known.join(', ')})`)
  }
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** A priority member ("idle" or a niceness 0–19), or undefined when absent or wrong (reported). */
export function readPriority(doc: Record<string, unknown>, member: string, problem: Problem): WorkerPriority | undefined {
  const priority = doc[member]
  if (priority === undefined) return undefined
  if (isWorkerPriority(priority)) return priority
  problem(`/${member}`, `must be "idle" or an integer from 0 to 19 (got ${show(priority)})`)
  return undefined
}

export function show(value: unknown): string {
  const text = value === undefined ? 'nothing' : JSON.stringify(value)
  return text.length > 40 ? text.slice(0, 37) + '...' : text
}
