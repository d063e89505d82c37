/**
 * Output already produced is never lost: when a fatal error (an unreadable input, a broken
 * disk) ends a command mid-run, the lines its writers still hold are flushed before the
 * error goes on to be reported.
 */
import type { JsonlWriter } from '../jsonl/index.js'

/** Runs `work`; if it throws, flushes `writers` (ignoring their own errors) and rethrows. */
export async function keepingOutput<T>(writers: readonly (JsonlWriter | undefined)[], work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    for (const writer of writers) await writer?.flush().catch(() => undefined)
    throw error
  }
}
