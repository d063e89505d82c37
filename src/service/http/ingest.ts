/**
 * POST /admin/events (our extension): the admin token as `authorization: Bearer TOKEN`, a
 * body of JSON Lines or a JSON array; answers `{accepted, duplicates, rejected:[{line, errors}]}`.
 * Bodies above the configured limit get 413, before reading when content-length says so.
 * DELETE /admin/events?tag=TAG, same token: deletes the events carrying that tag (how a
 * conformance run removes its events); answers `{deleted}`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { tokenMatches } from '../auth/index.js'
import { ingestStream } from '../ingest/feed.js'
import type { ServiceContext } from './context.js'
import { failed, sendError, sendJson, sendMethodNotAllowed } from './reply.js'

export function handleIngest(ctx: ServiceContext, req: IncomingMessage, res: ServerResponse): void {
  const method = req.method
  if (method !== 'POST' && method !== 'DELETE') return sendMethodNotAllowed(res, method, '/admin/events', 'POST, DELETE')
  if (ctx.config.adminToken === null) {
    return refuse(req, res, 403, `${method === 'POST' ? 'Ingest is' : 'Deleting events is'} disabled: the service configuration has no admin_token.`)
  }
  const header = req.headers.authorization ?? ''
  const token = /^Bearer +(.+)$/i.exec(header)?.[1]?.trim()
  if (token === undefined || !tokenMatches(ctx.config.adminToken, token)) {
    return refuse(req, res, 401, `${method} /admin/events needs the admin token as 'authorization: Bearer TOKEN'.`)
  }
  if (method === 'DELETE') return deleteTagged(ctx, req, res)
  const limit = ctx.config.maxBodyBytes
  const declared = Number(req.headers['content-length'] ?? 0)
  if (declared > limit) return refuse(req, res, 413, tooLarge(limit))

  const chunks: Buffer[] = []
  let size = 0
  let over = false
  req.on('data', (chunk: Buffer) => {
    if (over) return
    size += chunk.length
    if (size > limit) {
      over = true
      chunks.length = 0
      refuse(req, res, 413, tooLarge(limit))
      return
    }
    chunks.push(chunk)
    // One chunk per turn of the event loop: read as fast as it comes, a 16 MiB body arrived in
    // runs of 2 MiB (libuv reads a socket up to 32 times per poll), each a millisecond during
    // which no lookup was answered.
    req.pause()
    setImmediate(() => req.resume())
  })
  req.on('end', () => {
    if (over) return
    // The chunks as they came, not one concatenated copy: no 16 MiB copy in one piece of the event loop.
    ingestStream(ctx.store, fromArray(chunks), { bytes: size, workerPriority: ctx.config.ingestWorkerPriority, workerKind: ctx.config.ingestWorkers }).then(
      (report) => sendJson(res, 200, JSON.stringify(report)),
      (error: unknown) => sendError(res, 500, failed('Ingest failed', error)),
    )
  })
}

/** DELETE /admin/events?tag=TAG: deletes the events carrying TAG; 200 `{"deleted": N}`. */
function deleteTagged(ctx: ServiceContext, req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? ''
  const q = url.indexOf('?')
  const tags = new URLSearchParams(q === -1 ? '' : url.slice(q + 1)).getAll('tag')
  if (tags.length !== 1 || tags[0] === '') {
    return refuse(req, res, 400, 'DELETE /admin/events needs one non-empty tag parameter (?tag=…): the events carrying that tag are deleted.')
  }
  req.resume()
  Promise.resolve(ctx.store.deleteTagged(tags[0]!)).then(
    (deleted) => sendJson(res, 200, JSON.stringify({ deleted })),
    (error: unknown) => sendError(res, 500, failed('Deleting failed', error)),
  )
}

const tooLarge = (limit: number) => `The body is larger than ${limit} bytes; send the events in smaller batches.`

/**
 * Answers before the body was read, and closes the connection afterwards: the rest of the body
 * is drained (up to a bound) so the client sees the answer rather than a reset.
 */
function refuse(req: IncomingMessage, res: ServerResponse, status: number, description: string): void {
  if (req.complete) return sendError(res, status, description)
  sendError(res, status, description, { connection: 'close' })
  let drained = 0
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length
    if (drained > 64 * 1024 * 1024) req.socket.destroy()
  })
  req.resume()
}

async function* fromArray(chunks: Buffer[]): AsyncGenerator<Buffer> {
  yield* chunks
}
