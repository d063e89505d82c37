/** The one error type the client throws, with a `kind` to branch on. */
import type { Report } from '../validate/index.js'
import type { RawResponse } from './http.js'

export type ClientErrorKind =
  /** The server answered with a status other than 200 (and not a 429 that was waited out). */
  | 'http'
  /** 429s went on beyond the retry or total-wait cap. */
  | 'rate_limited'
  /** A 200 whose body is not JSON. */
  | 'bad_body'
  /** A 200 whose JSON does not match the schema; `report` says where. */
  | 'invalid_response'
  /** The attempt took longer than the timeout. */
  | 'timeout'
  /** The caller's AbortSignal fired. */
  | 'aborted'
  /** No HTTP answer at all (connection refused, DNS, reset). */
  | 'network'
  /** The live stream was closed by the server (`closeCode` says why: 1013 = fell behind, 1001 = stopping). */
  | 'closed'

export class ClientError extends Error {
  override name = 'ClientError'
  constructor(
    readonly kind: ClientErrorKind,
    message: string,
    readonly details: { response?: RawResponse; report?: Report; waitedMs?: number; attempts?: number; cause?: unknown; closeCode?: number } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause })
  }
  /** The HTTP status, when there was an answer. */
  get status(): number | undefined {
    return this.details.response?.status
  }
}
