/**
 * One delivery attempt: a single POST of the event's stored canonical JSON, signed the Standard
 * Webhooks way (webhook-id, webhook-timestamp, webhook-signature). A 2xx answer is delivered;
 * any other status (3xx too: redirects are not followed), a timeout, a reset, a refused
 * connection or a refused address is a failure the dispatcher retries (or, for 410, stops).
 * The `Retry-After` of a 429 or 503 answer is read for the dispatcher.
 */
import { readFileSync } from 'node:fs'
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { join } from 'node:path'
import ipaddr from 'ipaddr.js'
import { sign } from '../../webhooks/signature.js'
import { packageRoot } from '../package-root.js'
import { addressProblem, bareHost, guardedLookup, type GuardOptions } from './ssrf.js'

export interface Attempt {
  /** The delivery id: the `webhook-id` of every attempt of this delivery. */
  id: string
  url: string
  secret: string
  body: string
}

export interface DeliverOptions extends GuardOptions {
  timeoutMs: number
  /** Aborts the attempt (service shutdown). */
  signal?: AbortSignal
  /** Unix time in ms (tests). */
  now?: () => number
}

/**
 * What an attempt came to: an HTTP status, or an error and no status; `retryAfterMs` when a 429
 * or 503 answer said when to come back (`Retry-After`, seconds or an HTTP date).
 */
export type AttemptResult = { ok: boolean; status: number | null; error: string | null; retryAfterMs?: number | null }

/** Statuses whose `Retry-After` is honoured (RFC 9110 §10.2.3, RFC 6585 §4). */
const RETRY_AFTER_STATUSES = new Set([429, 503])

/**
 * A `Retry-After` value as milliseconds from `now`: delay-seconds (`120`) or an HTTP date
 * (`Wed, 21 Oct 2015 07:28:00 GMT`, past dates count as 0); null when it is neither.
 */
export function parseRetryAfter(value: string | undefined, now: number): number | null {
  if (value === undefined) return null
  const text = value.trim()
  if (/^[0-9]{1,10}$/.test(text)) return Number(text) * 1000
  // An HTTP date names its day or month (the IMF-fixdate, RFC 850 and asctime forms all do).
  if (!/^[A-Za-z]{3}/.test(text)) return null
  const at = Date.parse(text)
  return Number.isNaN(at) ? null : Math.max(0, at - now)
}

let userAgent: string | undefined

/** `l9kit/<package version>`. */
export function hookUserAgent(): string {
  if (userAgent === undefined) {
    const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }
    userAgent = `l9kit/${pkg.version}`
  }
  return userAgent
}

/** Makes one attempt; never rejects. */
export function deliver(attempt: Attempt, options: DeliverOptions): Promise<AttemptResult> {
  return new Promise((resolve) => {
    let url: URL
    try {
      url = new URL(attempt.url)
    } catch {
      return resolve(failure(`not a URL: ${attempt.url}`))
    }
    // Node connects to a literal address without calling `lookup`: check it here.
    const host = bareHost(url.hostname)
    if (!options.allowPrivate && ipaddr.isValid(host)) {
      const problem = addressProblem(host)
      if (problem !== null) return resolve(failure(`refused address: ${problem}`))
    }
    const now = (options.now ?? Date.now)()
    const timestamp = Math.floor(now / 1000)
    const body = Buffer.from(attempt.body, 'utf8')
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest
    let settled = false
    const finish = (result: AttemptResult) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      options.signal?.removeEventListener('abort', onAbort)
      resolve(result)
    }
    let signature: string
    try {
      signature = sign(attempt.secret, attempt.id, timestamp, body)
    } catch (error) {
      return resolve(failure(`cannot sign: ${(error as Error).message}`))
    }
    const req = send(url, {
      method: 'POST',
      agent: false,
      lookup: guardedLookup(options),
      headers: {
        'content-type': 'application/json',
        'content-length': body.length,
        'user-agent': hookUserAgent(),
        'webhook-id': attempt.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature,
      },
    })
    const timer = setTimeout(() => {
      finish(failure(`timeout: no answer within ${options.timeoutMs} ms`))
      req.destroy()
    }, options.timeoutMs)
    const onAbort = () => {
      finish(failure('aborted: the service stopped'))
      req.destroy()
    }
    options.signal?.addEventListener('abort', onAbort, { once: true })
    req.on('response', (res: IncomingMessage) => {
      const status = res.statusCode ?? 0
      // The answer's body is not needed: drop it and close the connection.
      res.resume()
      res.on('error', () => undefined)
      if (status >= 200 && status < 300) finish({ ok: true, status, error: null })
      else {
        const header = res.headers['retry-after']
        const retryAfterMs = RETRY_AFTER_STATUSES.has(status) ? parseRetryAfter(header, now) : null
        const note = status >= 300 && status < 400 ? ' (redirects are not followed)' : retryAfterMs !== null ? ` (Retry-After: ${header!.trim().slice(0, 40)})` : ''
        finish({ ok: false, status, error: `HTTP ${status}${note}`, retryAfterMs })
      }
      res.destroy()
    })
    req.on('error', (error: NodeJS.ErrnoException) => finish(failure(errorText(error))))
    req.end(body)
  })
}

const failure = (error: string): AttemptResult => ({ ok: false, status: null, error })

function errorText(error: NodeJS.ErrnoException): string {
  if (error.code === 'EREFUSEDADDRESS') return error.message
  if (error.code === 'ECONNREFUSED') return 'connection refused'
  if (error.code === 'ECONNRESET') return 'connection reset'
  if (error.code === 'ENOTFOUND') return `host not found (${error.message})`
  return error.code ? `${error.code}: ${error.message}` : error.message
}
