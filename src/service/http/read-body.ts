/** Reading a small JSON request body (the hook API's), with a size bound. */
import type { IncomingMessage } from 'node:http'

/** Largest body the hook API accepts. */
export const MAX_API_BODY = 64 * 1024

export type BodyResult = { ok: true; value: unknown } | { ok: false; status: 400 | 413; message: string }

/** Reads and parses the body; an empty body is `{}` only when `emptyAsObject`. */
export function readJsonBody(req: IncomingMessage, emptyAsObject = false): Promise<BodyResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    let over = false
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_API_BODY) over = true
      else chunks.push(chunk)
    })
    req.on('error', () => resolve({ ok: false, status: 400, message: 'The request body could not be read.' }))
    req.on('end', () => {
      if (over) return resolve({ ok: false, status: 413, message: `The body is larger than ${MAX_API_BODY} bytes.` })
      const text = Buffer.concat(chunks).toString('utf8').trim()
      if (text === '') {
        if (emptyAsObject) return resolve({ ok: true, value: {} })
        return resolve({ ok: false, status: 400, message: 'The body is empty; send a JSON object.' })
      }
      try {
        resolve({ ok: true, value: JSON.parse(text) })
      } catch (error) {
        resolve({ ok: false, status: 400, message: `The body is not valid JSON: ${(error as Error).message}` })
      }
    })
  })
}
