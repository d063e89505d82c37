/** Running an ingest transaction again after a deadlock or a serialisation failure (at most five tries). */

/** Deadlock and serialisation failures: the batch is tried again. */
const RETRYABLE = new Set(['40P01', '40001'])

export async function withRetry<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work()
    } catch (error) {
      const code = (error as { code?: string }).code
      if (attempt >= 5 || code === undefined || !RETRYABLE.has(code)) throw error
    }
  }
}
