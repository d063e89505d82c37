/**
 * Reading a small JSON request body (the hook API's), with a size bound: a `content-length`
 * above it is refused before a byte of the body is read, and a body sent without one (chunked)
 * stops being read at the bound: the 413 goes out and the connection is closed behind it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { sendError } from './reply.js'

/** Largest body the hook API accepts. */
export const MAX_API_BODY = 64 * 1024

export type BodyResult = { ok: true; value: unknown } | { ok: false; status: 400 | 413; message: string; close?: boolean }

/**
 * After a 413, how much more of the body is read (and dropped) before the connection is cut: a
 * client still sending would otherwise get a reset instead of the answer. A bound, not the body.
 */
const DRAIN_AFTER_REFUSAL = 1024 * 1024

const tooLarge = (): BodyResult => ({ ok: false, status: 413, message: `The body is larger than ${MAX_API_BODY} bytes.`, close: true })

/**
 * Reads and parses the body; an empty body is `{}` only when `emptyAsObject`. A 413 result has
 * `close` set: answer it with `connection: close` (the rest of the body is never read).
 */
export function readJsonBody(req: IncomingMessage, emptyAsObject = false): Promise<BodyResult> {
  const declared = req.headers['content-length']
  if (declared !== undefined && Number(declared) > MAX_API_BODY) {
    req.pause()
    return Promise.resolve(tooLarge())
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    let done = false
    const finish = (result: BodyResult) => {
      if (done) return
      done = true
      resolve(result)
    }
    req.on('data', (chunk: Buffer) => {
      if (done) return
      size += chunk.length
      if (size <= MAX_API_BODY) return void chunks.push(chunk)
      chunks.length = 0
      req.pause()
      finish(tooLarge())
    })
    req.on('error', () => finish({ ok: false, status: 400, message: 'The request body could not be read.' }))
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8').trim()
      if (text === '') {
        if (emptyAsObject) return finish({ ok: true, value: {} })
        return finish({ ok: false, status: 400, message: 'The body is empty; send a JSON object.' })
      }
      try {
        finish({ ok: true, value: JSON.parse(text) })
      } catch (error) {
        finish({ ok: false, status: 400, message: `The body is not valid JSON: ${(error as Error).message}` })
      }
    })
  })
}

/** Answers a body that could not be used; a 413 closes the connection and reads at most DRAIN_AFTER_REFUSAL more. */
export function sendBodyProblem(req: IncomingMessage, res: ServerResponse, result: Extract<BodyResult, { ok: false }>): void {
  if (!result.close || req.complete) return sendError(res, result.status, result.message)
  sendError(res, result.status, result.message, { connection: 'close' })
  let drained = 0
  req.removeAllListeners('data')
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length
    if (drained > DRAIN_AFTER_REFUSAL) req.socket.destroy()
  })
  req.resume()
}
