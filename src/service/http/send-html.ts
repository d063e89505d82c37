/** Writing HTML answers: security headers, `vary: accept`, gzip when the client takes it. */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { gzip } from 'node:zlib'
import { TITLES } from './reply.js'
import { type Box, renderError } from '../web/render.js'

/**
 * Scripts only from this service's own files (the one at /static/l9kit.js: no inline script,
 * no eval), styles only from it, forms only to it. This is a second wall: the first is that
 * every value from an event is escaped.
 */
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

/** Pages this small are not worth compressing. */
const GZIP_FROM = 1024

/** Sends a page (or an error page) with its status. */
export function sendHtml(req: IncomingMessage, res: ServerResponse, status: number, html: string, headers: Record<string, string> = {}): void {
  const body = Buffer.from(html, 'utf8')
  const base: Record<string, string | number> = {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-cache',
    vary: 'accept, accept-encoding',
    'content-security-policy': CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    ...headers,
  }
  if (status === 429) res.statusMessage = 'Rate-limited'
  if (body.length < GZIP_FROM || !acceptsGzip(req.headers['accept-encoding'])) {
    res.writeHead(status, { ...base, 'content-length': body.length })
    return void res.end(body)
  }
  gzip(body, (error, zipped) => {
    if (error) {
      res.writeHead(status, { ...base, 'content-length': body.length })
      return void res.end(body)
    }
    res.writeHead(status, { ...base, 'content-encoding': 'gzip', 'content-length': zipped.length })
    res.end(zipped)
  })
}

/** An error page saying what the JSON error body would say; `box` is what its search box keeps. */
export function sendHtmlError(req: IncomingMessage, res: ServerResponse, status: number, description: string, headers?: Record<string, string>, box?: Box): void {
  const reason = TITLES[status] ?? 'Error'
  sendHtml(req, res, status, renderError({ status, reason, description }, apiPathOf(req), box), headers)
}

/** The request's path without its query (shown in the footer's curl hint). */
export function apiPathOf(req: IncomingMessage): string {
  const url = req.url ?? '/'
  const q = url.indexOf('?')
  return q === -1 ? url : url.slice(0, q)
}

/** Whether `accept-encoding` allows gzip (named with q > 0, or `*` with q > 0 and gzip not refused). */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  if (header === undefined) return false
  let star = false
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [name = '', ...params] = part.split(';').map((x) => x.trim().toLowerCase())
    const q = params.find((p) => p.startsWith('q='))
    const allowed = q === undefined || Number(q.slice(2)) > 0
    if (name === 'gzip' || name === 'x-gzip') return allowed
    if (name === '*') star = allowed
  }
  return star
}
