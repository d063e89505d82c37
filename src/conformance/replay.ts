/**
 * `l9kit conform --replay FILE --check ID`: the requests a check made in a recorded run (a HAR
 * cassette of `--report har:FILE`), sent again in order to the same server or another, each
 * answer set beside the recorded one. Keys were redacted in the cassette: each request is sent
 * as the identity it was recorded with, using this run's --api-key, --pro-key and --admin-token
 * (a wrong key is a new wrong key). Deliveries the suite received are not requests: left out.
 * Paced like a run (--rate) and 429s waited out.
 */
import { readFile } from 'node:fs/promises'
import { LookupClient, type Method, Pacer, type RawResponse, type Rate } from '../client/index.js'
import { REDACTED } from './report/har.js'

export interface ReplayOptions {
  file: string
  check: string
  /** Where to send them; default: the recorded server. */
  baseUrl?: string
  apiKey?: string
  proKey?: string
  adminToken?: string
  rate?: Rate
  timeoutMs?: number
  signal?: AbortSignal
  fetch?: typeof fetch
}

export interface ReplayedExchange {
  method: string
  path: string
  identity: string
  recorded: { status: number; body: string }
  now: { status: number; body: string } | { error: string }
  /** Same status and body as recorded. */
  same: boolean
}

export interface ReplayReport {
  baseUrl: string
  check: string
  exchanges: ReplayedExchange[]
}

/** A cassette that cannot be replayed: not HAR, or no request of that check in it. */
export class ReplayError extends Error {
  override name = 'ReplayError'
}

interface HarEntry {
  request: { method: string; url: string; headers: { name: string; value: string }[]; postData?: { text?: string; mimeType?: string } }
  response: { status: number; content?: { text?: string } }
  _checks?: string[]
  _identity?: string
  _incoming?: boolean
}

/** Reads the cassette and sends the check's requests again. */
export async function replay(options: ReplayOptions, onExchange?: (e: ReplayedExchange) => void): Promise<ReplayReport> {
  let har: { log?: { entries?: HarEntry[] } }
  try {
    har = JSON.parse(await readFile(options.file, 'utf8'))
  } catch (error) {
    throw new ReplayError(`cannot read ${options.file} as a HAR file: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
  const all = har.log?.entries
  if (!Array.isArray(all)) throw new ReplayError(`${options.file} is not a HAR file (no log.entries)`)
  const entries = all.filter((e) => !e._incoming && Array.isArray(e._checks) && e._checks.includes(options.check) && !e.request.url.startsWith('ws'))
  if (entries.length === 0) {
    const checks = [...new Set(all.flatMap((e) => e._checks ?? []))].sort()
    throw new ReplayError(`no request of check '${options.check}' in ${options.file} (its checks: ${checks.join(', ') || 'none'})`)
  }
  const recordedBase = new URL(entries[0]!.request.url).origin
  const baseUrl = (options.baseUrl ?? recordedBase).replace(/\/+$/, '')
  const client = new LookupClient({ baseUrl, pacer: new Pacer(options.rate ?? 1), timeoutMs: options.timeoutMs ?? 15_000, maxRetries: 4, maxWaitMs: 60_000, validate: false, ...(options.signal ? { signal: options.signal } : {}), ...(options.fetch ? { fetch: options.fetch } : {}) })
  const wrongKey = `l9kit-conform-wrong-replay-${Date.now().toString(16)}`
  const exchanges: ReplayedExchange[] = []
  for (const e of entries) {
    const url = new URL(e.request.url)
    const path = url.pathname + url.search
    const identity = e._identity ?? 'anonymous'
    const headers: Record<string, string> = {}
    for (const { name, value } of e.request.headers) {
      const lower = name.toLowerCase()
      if (lower === 'api-key' || lower === 'authorization' || lower === 'content-length' || lower === 'host') continue
      headers[lower] = value
    }
    if (identity === 'admin' && options.adminToken !== undefined) headers.authorization = `Bearer ${options.adminToken}`
    else if (identity === 'wrong') {
      if (e.request.headers.some((h) => h.name.toLowerCase() === 'authorization')) headers.authorization = `Bearer ${wrongKey}`
    }
    const key = identity === 'key' ? (options.apiKey ?? null) : identity === 'pro' ? (options.proKey ?? null) : identity === 'wrong' && e.request.headers.some((h) => h.name.toLowerCase() === 'api-key') ? wrongKey : null
    const text = e.request.postData?.text
    const recorded = { status: e.response.status, body: e.response.content?.text ?? '' }
    let now: ReplayedExchange['now']
    try {
      const r: RawResponse = await client.request(e.request.method as Method, path, { headers, ...(text === undefined ? {} : { text }) }, { apiKey: key })
      now = { status: r.status, body: r.body }
    } catch (error) {
      now = { error: (error as Error).message }
    }
    const same = 'status' in now && now.status === recorded.status && (recorded.body.includes(REDACTED) || now.body === recorded.body)
    const exchange: ReplayedExchange = { method: e.request.method, path, identity, recorded, now, same }
    exchanges.push(exchange)
    onExchange?.(exchange)
  }
  return { baseUrl, check: options.check, exchanges }
}
