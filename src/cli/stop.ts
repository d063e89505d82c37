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

/**
 * Calls `onGone` once this process's parent has gone (polled every `everyMs`, on a timer that
 * keeps nothing alive). For `npm start` and `npx l9kit …`: npm runs the command through
 * `sh -c` and forwards SIGINT and SIGTERM to that shell only, which ends without passing them
 * on, so without this the command would be left running (holding its port) after npm ended.
 */
export function watchParent(onGone: () => void, everyMs = 250): void {
  const parent = process.ppid
  const timer = setInterval(() => {
    if (process.ppid === parent) return
    clearInterval(timer)
    onGone()
  }, everyMs)
  timer.unref()
}
