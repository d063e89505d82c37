/**
 * The live stream as an async iterator (`client.live(scope)`): a WebSocket to `/ws/service` or
 * `/ws/leak` (the `ws` package: Node 20 has no WebSocket client), one event document per text
 * message. Messages the caller has not taken yet are held up to a bound; past it the socket is
 * paused, so a slow caller makes the server (not this process) hold the backlog, and the
 * server's slow-consumer rule decides. The iteration ends when the signal aborts; a refused
 * connection, a close by the server or a network failure is thrown as a ClientError.
 */
import WebSocket from 'ws'
import type { Event } from '../schema/index.js'
import { isStrictValid } from '../validate/index.js'
import { errorText } from './client.js'
import { ClientError } from './errors.js'
import type { RawResponse } from './http.js'

export type LiveScope = 'service' | 'leak'

export interface LiveOptions {
  /** The stream's `q` filter (the server's query language; `*` or none = everything). */
  query?: string
  /** More query parameters of the request (conform names its run: `l9kit-conform-run`). */
  params?: Readonly<Record<string, string>>
  /** Ends the iteration (cleanly) when it aborts. */
  signal?: AbortSignal
  /** Messages held for the caller before the socket is paused (default 1 000). */
  highWaterMark?: number
  /** Refuse a message that is not a strict event document (default true). */
  validate?: boolean
  /** Called once the server accepted the connection (its 101): events stored from then on arrive. */
  onOpen?: () => void
}

/** One message of the stream: its text as sent, and the event it holds. */
export interface LiveMessage {
  text: string
  event: Event
}

/** The stream's URL: http → ws, https → wss, `q` when a filter is given. */
export function liveUrl(baseUrl: string, scope: LiveScope, query?: string, params: Readonly<Record<string, string>> = {}): string {
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}/ws/${scope}`)
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:'
  if (query !== undefined) url.searchParams.set('q', query)
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value)
  return url.toString()
}

/** The messages of one connection, in order. */
export async function* liveMessages(baseUrl: string, apiKey: string | undefined, scope: LiveScope, options: LiveOptions = {}): AsyncGenerator<LiveMessage> {
  if (options.signal?.aborted) return
  const url = liveUrl(baseUrl, scope, options.query, options.params)
  const path = `/ws/${scope}`
  const ws = new WebSocket(url, { headers: { 'api-key': apiKey ?? '', 'user-agent': 'l9kit' }, perMessageDeflate: false })
  const queue: LiveMessage[] = []
  const high = options.highWaterMark ?? 1_000
  let failure: ClientError | null = null
  let ended = false
  let wake: (() => void) | null = null
  const notify = () => {
    wake?.()
    wake = null
  }
  const stop = (error: ClientError | null) => {
    if (ended) return
    ended = true
    failure = error
    notify()
  }
  ws.once('open', () => options.onOpen?.())
  ws.on('unexpected-response', (_req, res) => {
    const chunks: Buffer[] = []
    res.on('data', (c: Buffer) => chunks.push(c))
    res.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const headers = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]))
      const response: RawResponse = { method: 'GET', url, path, status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', headers, body, elapsedMs: 0, keyed: apiKey !== undefined }
      stop(new ClientError('http', `GET ${path}: ${response.status} ${response.statusText}${describe(body, response.statusText)}`, { response }))
      ws.terminate()
    })
  })
  ws.on('message', (data, binary) => {
    if (binary) return
    const text = data.toString()
    let event: Event
    try {
      event = JSON.parse(text) as Event
    } catch {
      stop(new ClientError('bad_body', `${path}: a message is not JSON: ${text.slice(0, 80)}`))
      return void ws.terminate()
    }
    if (options.validate !== false && !isStrictValid(event)) {
      stop(new ClientError('invalid_response', `${path}: a message is not a strict event document: ${text.slice(0, 80)}`))
      return void ws.terminate()
    }
    queue.push({ text, event })
    if (queue.length >= high && !ws.isPaused) ws.pause()
    notify()
  })
  ws.on('close', (code, reason) => {
    if (code === 1000 || options.signal?.aborted) return stop(null)
    stop(new ClientError('closed', `${path}: the server closed the stream (${code}${reason.length > 0 ? `: ${reason.toString()}` : ''})`, { closeCode: code }))
  })
  ws.on('error', (error: NodeJS.ErrnoException) => {
    stop(new ClientError('network', `${url}: ${error.code ?? error.message}`, { cause: error }))
  })
  const abort = () => {
    ws.close(1000)
    stop(null)
  }
  options.signal?.addEventListener('abort', abort, { once: true })
  try {
    for (;;) {
      const next = queue.shift()
      if (next !== undefined) {
        if (queue.length < high / 2 && ws.isPaused) ws.resume()
        yield next
        continue
      }
      if (ended) break
      await new Promise<void>((resolve) => (wake = resolve))
    }
    if (failure !== null && !options.signal?.aborted) throw failure
  } finally {
    options.signal?.removeEventListener('abort', abort)
    if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.terminate()
  }
}

/** `: title: description` of a JSON error body (or its string), when it has one (errorText: a title that repeats `reason` left out). */
function describe(body: string, reason: string): string {
  try {
    const doc = JSON.parse(body) as unknown
    if (typeof doc === 'string') return `: ${doc}`
  } catch {
    return ''
  }
  return errorText(body, reason)
}
