/** One HTTP request with Node's fetch: a timeout, the caller's signal, and the whole answer as text. */
import { ClientError } from './errors.js'

/** The methods the clients send (lookups GET; the hook API also POST and DELETE; the conformance suite's method probes PUT and the like). */
export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS'

/** An answer as the server gave it; header names lower-case. */
export interface RawResponse {
  method: Method
  url: string
  /** Path and query as requested, relative to the base URL. */
  path: string
  status: number
  /** The reason phrase of the status line (HTTP/1.1), e.g. `Rate-limited`. */
  statusText: string
  headers: Record<string, string>
  body: string
  /** Milliseconds from sending to the end of the body. */
  elapsedMs: number
  /** The api-key sent, if any (for reports: the suite never prints it). */
  keyed: boolean
}

export interface AttemptOptions {
  /** Default GET. */
  method?: Method
  /** Request body (sent as it is; the caller sets content-type). */
  body?: string
  fetch: typeof fetch
  url: string
  path: string
  headers: Record<string, string>
  timeoutMs: number
  signal?: AbortSignal
}

/** Sends one request; network failures, timeouts and aborts become ClientErrors. */
export async function attempt(options: AttemptOptions): Promise<RawResponse> {
  const timeout = AbortSignal.timeout(options.timeoutMs)
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
  const method = options.method ?? 'GET'
  const started = performance.now()
  try {
    const init: RequestInit = { method, headers: options.headers, signal, redirect: 'manual' }
    if (options.body !== undefined) init.body = options.body
    const response = await options.fetch(options.url, init)
    const body = await response.text()
    const headers: Record<string, string> = {}
    response.headers.forEach((value, name) => {
      headers[name] = value
    })
    return {
      method,
      url: options.url,
      path: options.path,
      status: response.status,
      statusText: response.statusText,
      headers,
      body,
      elapsedMs: performance.now() - started,
      keyed: 'api-key' in options.headers,
    }
  } catch (error) {
    if (options.signal?.aborted) throw new ClientError('aborted', `${method} ${options.path}: aborted`, { cause: options.signal.reason })
    if (timeout.aborted) throw new ClientError('timeout', `${method} ${options.path}: no answer within ${options.timeoutMs} ms`, { cause: error })
    const cause = (error as { cause?: { code?: string; message?: string } }).cause
    const why = cause?.code ?? cause?.message ?? (error as Error).message
    throw new ClientError('network', `${method} ${options.url}: ${why}`, { cause: error })
  }
}

/**
 * As attempt(), but a 200's body is left unread, as a stream (`timeoutMs` then bounds only the
 * wait for the headers); other answers are read whole.
 */
export async function open(options: AttemptOptions): Promise<RawResponse & { stream?: ReadableStream<Uint8Array> }> {
  const controller = new AbortController()
  const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal
  const timer = setTimeout(() => controller.abort(new Error('timeout')), options.timeoutMs)
  const started = performance.now()
  try {
    const response = await options.fetch(options.url, { method: 'GET', headers: options.headers, signal, redirect: 'manual' })
    clearTimeout(timer)
    const headers: Record<string, string> = {}
    response.headers.forEach((value, name) => {
      headers[name] = value
    })
    const streamed = response.status === 200 && response.body !== null
    const body = streamed ? '' : await response.text()
    const raw: RawResponse = { method: 'GET', url: options.url, path: options.path, status: response.status, statusText: response.statusText, headers, body, elapsedMs: performance.now() - started, keyed: 'api-key' in options.headers }
    return streamed ? { ...raw, stream: response.body! } : raw
  } catch (error) {
    clearTimeout(timer)
    if (options.signal?.aborted) throw new ClientError('aborted', `GET ${options.path}: aborted`, { cause: options.signal.reason })
    if (controller.signal.aborted) throw new ClientError('timeout', `GET ${options.path}: no answer within ${options.timeoutMs} ms`, { cause: error })
    const cause = (error as { cause?: { code?: string; message?: string } }).cause
    throw new ClientError('network', `GET ${options.url}: ${cause?.code ?? cause?.message ?? (error as Error).message}`, { cause: error })
  }
}
