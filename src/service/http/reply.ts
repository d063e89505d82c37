/** Writing answers: always `content-type: application/json`; errors as `{title, description}`. */
import type { ServerResponse } from 'node:http'
import type { ErrorBody } from '../../schema/index.js'

export const JSON_TYPE = 'application/json'

/** Sends JSON (already serialised, as text or UTF-8 bytes) with its status. */
export function sendJson(res: ServerResponse, status: number, body: string | Buffer, headers?: Record<string, string>): void {
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length
  res.writeHead(status, headers ? { 'content-type': JSON_TYPE, 'content-length': length, ...headers } : { 'content-type': JSON_TYPE, 'content-length': length })
  res.end(body)
}

/**
 * A lookup's 200 answer: `headers` (lookupHeaders) is a flat list that writeHead stores as it
 * is (no header object set up first, no merge, no per-header setHeader).
 */
export function sendLookupJson(res: ServerResponse, body: Buffer, headers: readonly string[]): void {
  res.writeHead(200, headers as string[])
  res.end(body)
}

/** The headers of a /host or /domain 200 answer (`vary: accept`: the web view answers browsers there). */
export const lookupHeaders = (length: number): string[] => ['content-type', JSON_TYPE, 'content-length', String(length), 'vary', 'accept']

/** The extra header of every /host and /domain answer, errors included. */
export const VARY_ACCEPT: Readonly<Record<string, string>> = Object.freeze({ vary: 'accept' })

/** Titles of the error answers: the reason phrase of their status. */
export const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  422: 'Unprocessable Content',
  426: 'Upgrade Required',
  429: 'Rate-limited',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
}

/** The error body for a status. */
export function errorBody(status: number, description: string): string {
  const body: ErrorBody = { title: TITLES[status] ?? 'Error', description }
  return JSON.stringify(body)
}

/** Sends an error answer; 429 carries the reason phrase `Rate-limited` as the specification asks. */
export function sendError(res: ServerResponse, status: number, description: string, headers?: Record<string, string>): void {
  const body = errorBody(status, description)
  if (status === 429) res.statusMessage = 'Rate-limited'
  sendJson(res, status, body, headers)
}

/**
 * 405 for a method the path does not take, with `allow` listing the ones it does (RFC 9110
 * 15.5.6): the path exists, so 404 would say something false (docs/service.md, Statuses).
 */
export function sendMethodNotAllowed(res: ServerResponse, method: string | undefined, path: string, allow: string, headers?: Record<string, string>): void {
  sendError(res, 405, `${method ?? '(no method)'} is not allowed on ${shown(path)}; it takes ${allow}.`, { ...headers, allow })
}

/** The methods of the read-only routes (lookups, search, plugins, bulk, the web view). */
export const READ_METHODS = 'GET, HEAD'

/**
 * Where the reasons of failures go (the server's log: standard error by default). Answers never
 * carry them: a store's or library's text is not for clients (it may name tables or settings).
 */
export let logFailure = (line: string): void => void process.stderr.write(`l9kit serve: ${line}\n`)

/** Sends failures' reasons to `log` instead (tests, a host program); returns the previous one. */
export function setFailureLog(log: (line: string) => void): (line: string) => void {
  const previous = logFailure
  logFailure = log
  return previous
}

/** The description of an answer for a failure of `what`, whose reason (`error`) is logged, never sent. */
export function failed(what: string, error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error)
  logFailure(`${what}: ${reason.replace(/\s+/g, ' ').slice(0, 500)}`)
  return `${what}; the reason is in the server's log.`
}

/**
 * A whole HTTP/1.1 error answer as raw text, for sockets the HTTP parser gave up on and for
 * refused WebSocket upgrades (`headers` then carry `x-limited-for` and the like).
 */
export function rawError(status: number, description: string, headers: Readonly<Record<string, string>> = {}): string {
  const body = errorBody(status, description)
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('')
  return (
    `HTTP/1.1 ${status} ${TITLES[status] ?? 'Error'}\r\n` +
    `content-type: ${JSON_TYPE}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}connection: close\r\n\r\n${body}`
  )
}

/** A path parameter as shown in an error message: quoted, clipped. */
export function shown(text: string): string {
  const clipped = text.length > 80 ? `${text.slice(0, 77)}...` : text
  return JSON.stringify(clipped)
}
