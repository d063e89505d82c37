/**
 * A bug of ours met while handling one record must cost that record only: it is turned into
 * an `internal_error` issue (with the stack, and a request to report it), counted and skipped
 * like any other bad record, and the records after it go on.
 */
import type { Issue } from '../validate/issue.js'

/** Where to report a bug, in the message of every internal error. */
export const REPORT_REQUEST = 'this is a bug in l9kit: please report it, with the record that caused it'

/** The issue for an exception thrown while handling one record. */
export function internalError(error: unknown): Issue {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  const stack = error instanceof Error ? error.stack : undefined
  return { code: 'internal_error', pointer: '', message: `internal error: ${message} (${REPORT_REQUEST})`, ...(stack ? { stack } : {}) }
}

/** Runs `work` for one record; an exception becomes `onError(internalError(e))`. */
export function guarded<T>(work: () => T, onError: (issue: Issue) => T): T {
  try {
    return work()
  } catch (error) {
    return onError(internalError(error))
  }
}
