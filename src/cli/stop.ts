/** Waiting for a long-running command (serve, hooks listen) to be told to stop. */
import type { Io } from './command.js'

/** Resolves on the program's stop signal, or on SIGINT/SIGTERM when run without one. */
export function untilStopped(io: Io): Promise<void> {
  const signal = io.stopSignal
  if (signal) {
    if (signal.aborted) return Promise.resolve()
    return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))
  }
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve())
    process.once('SIGTERM', () => resolve())
  })
}
