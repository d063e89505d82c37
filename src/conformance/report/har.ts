/**
 * The run as an HTTP Archive (HAR 1.2, `--report har:FILE`): every request the suite sent and
 * its answer, in order, each entry naming the checks that used it (`_checks`) and who it was
 * sent as (`_identity`), so `l9kit conform --replay FILE --check ID` can send a check's requests
 * again. Hook deliveries the suite received are entries with `_incoming: true`; a WebSocket's
 * messages are in `_webSocketMessages`, as browsers write them. Secrets are redacted: api keys,
 * the admin token, hook secrets (wherever they appear: headers, bodies, URLs) and signatures.
 */
import type { Exchange } from '../record.js'

export const REDACTED = '[redacted]'

/** Headers whose value is always replaced. */
const SECRET_HEADERS: Record<string, (value: string) => string> = {
  'api-key': (v) => (v === '' ? '' : REDACTED),
  authorization: (v) => (/^bearer /i.test(v) ? `Bearer ${REDACTED}` : REDACTED),
  'webhook-signature': () => `v1,${REDACTED}`,
}

export interface HarMeta {
  version: string
  baseUrl: string
  seed: number
}

type NameValue = { name: string; value: string }

/** The HAR document of the recorded exchanges; `secrets` are replaced wherever they appear. */
export function toHar(exchanges: readonly Exchange[], secrets: Iterable<string>, meta: HarMeta): unknown {
  const hide = redactor(secrets)
  return {
    log: {
      version: '1.2',
      creator: { name: 'l9kit conform', version: meta.version },
      comment: `l9kit conform ${meta.baseUrl}, seed ${meta.seed}; secrets redacted`,
      entries: exchanges.map((e) => entry(e, hide)),
    },
  }
}

function entry(e: Exchange, hide: (text: string) => string): Record<string, unknown> {
  const url = hide(e.request.url)
  const requestHeaders = headers(e.request.headers, hide)
  const request: Record<string, unknown> = {
    method: e.request.method,
    url,
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: requestHeaders,
    queryString: queryOf(url),
    headersSize: -1,
    bodySize: e.request.body === undefined ? 0 : Buffer.byteLength(e.request.body),
  }
  if (e.request.body !== undefined) request.postData = { mimeType: headerOf(e.request.headers, 'content-type') ?? 'application/octet-stream', text: hide(e.request.body) }
  const r = e.response
  const response = {
    status: r?.status ?? 0,
    statusText: r?.statusText ?? '',
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: headers(r?.headers ?? [], hide),
    content: {
      size: r === undefined ? 0 : Buffer.byteLength(r.body),
      mimeType: (r && headerOf(r.headers, 'content-type')) ?? 'x-unknown',
      ...(r === undefined || r.body === '' ? {} : { text: hide(r.body) }),
      ...(r?.truncated ? { comment: 'the suite read no further (a streamed answer is cut after 1 MiB, or where the suite stopped reading)' } : {}),
    },
    redirectURL: (r && headerOf(r.headers, 'location')) ?? '',
    headersSize: -1,
    bodySize: r === undefined ? 0 : Buffer.byteLength(r.body),
    ...(e.error === undefined ? {} : { _error: hide(e.error) }),
  }
  const time = Math.max(0, Math.round(e.timeMs * 1000) / 1000)
  return {
    startedDateTime: e.startedAt,
    time,
    request,
    response,
    cache: {},
    timings: { send: 0, wait: time, receive: 0 },
    _checks: [...e.checks],
    _identity: e.identity,
    ...(e.incoming ? { _incoming: true } : {}),
    ...(e.messages ? { _webSocketMessages: e.messages.map((m) => ({ type: 'receive', time: m.time, opcode: 1, data: hide(m.data) })) } : {}),
  }
}

function headers(list: readonly [string, string][], hide: (text: string) => string): NameValue[] {
  return list.map(([name, value]) => ({ name, value: SECRET_HEADERS[name.toLowerCase()]?.(value) ?? hide(value) }))
}

const headerOf = (list: readonly [string, string][], name: string) => list.find(([n]) => n.toLowerCase() === name)?.[1]

function queryOf(url: string): NameValue[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }))
  } catch {
    return []
  }
}

/** Replaces every secret (longest first, so one holding another goes whole) in a text. */
function redactor(secrets: Iterable<string>): (text: string) => string {
  const list = [...new Set(secrets)].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length)
  // A secret may also appear percent-encoded (in a URL) or JSON-escaped (in a body).
  const forms = list.flatMap((s) => [...new Set([s, encodeURIComponent(s), JSON.stringify(s).slice(1, -1)])])
  return (text) => {
    let out = text
    for (const s of forms) if (out.includes(s)) out = out.split(s).join(REDACTED)
    return out
  }
}
