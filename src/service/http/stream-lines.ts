/**
 * Writing a stream of records as JSON Lines with backpressure: records are gathered into chunks
 * of about 64 KiB; when the socket will not take more (`write` returns false) the next record is
 * not asked for until 'drain'. Lines waiting longer than FLUSH_MS (the store is slow to find the
 * next) are written anyway, so a selective export's lines arrive as they are found. When the client goes away the source's iterator is closed (its
 * `return`), so a dropped connection stops the query. Nothing to write at all is a 204. A client
 * that takes nothing for `idleMs` while the socket waits for a 'drain' is cut (a stalled export
 * holds the store's read and its buffers).
 */
import type { ServerResponse } from 'node:http'
import { joinPieces, LineChunk, piecesLength } from '../aggregate/pieces.js'

const CHUNK_BYTES = 64 * 1024
/** Lines gathered for this long go out even when the chunk is not full (a slow query's first lines). */
const FLUSH_MS = 50
const NEWLINE = Buffer.from('\n')

/**
 * One record: its bytes, or its pieces in order (written into the chunk one after another,
 * never joined first), or a LineChunk of whole lines.
 */
export type LineRecord = Uint8Array | readonly (Uint8Array | string)[] | LineChunk

/** Content type of a JSON Lines answer. */
export const NDJSON_TYPE = 'application/x-ndjson'

/**
 * Cuts a stalled answer's connection with a reset, which frees the kernel's buffers for it at
 * once too (a plain close would keep the unsent bytes queued for a client that reads nothing).
 */
function cut(res: ServerResponse): void {
  const socket = res.socket
  if (socket !== null && typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy()
  res.destroy()
}

/**
 * Streams `records` (each one JSON document without its newline, or a LineChunk of whole lines)
 * to `res`, one per line; resolves when done or stopped by the client; when the source fails
 * after the answer began, the connection is cut (the answer is incomplete), before that the
 * error is thrown for the caller to answer.
 */
export async function streamLines(res: ServerResponse, records: AsyncIterable<LineRecord>, idleMs = Infinity): Promise<void> {
  let gone = false
  let wake: (() => void) | undefined
  const onClose = () => {
    gone = true
    wake?.()
  }
  res.on('close', onClose)
  const iterator = records[Symbol.asyncIterator]()
  let done = false
  let parts: (Uint8Array | string)[] = []
  let bytes = 0
  let timer: NodeJS.Timeout | undefined
  /** Writes what is gathered; false when the socket wants a 'drain' first. */
  const flush = (): boolean => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
    if (bytes === 0 || gone) return true
    const chunk = joinPieces(parts, bytes)
    parts = []
    bytes = 0
    return res.write(chunk)
  }
  /** Resolves at the socket's next 'drain', or when the client goes away (cut after `idleMs` without one). */
  const drained = async () => {
    let idle: NodeJS.Timeout | undefined
    await new Promise<void>((resolve) => {
      wake = resolve
      res.once('drain', resolve)
      if (Number.isFinite(idleMs)) idle = setTimeout(() => cut(res), idleMs)
    })
    clearTimeout(idle)
    if (wake !== undefined) res.off('drain', wake)
    wake = undefined
  }
  try {
    for (;;) {
      const next = await iterator.next()
      if (next.done) done = true
      if (gone) return
      if (done) break
      if (!res.headersSent) res.writeHead(200, { 'content-type': NDJSON_TYPE, 'cache-control': 'no-store' })
      const record = next.value
      if (record instanceof LineChunk) {
        // Whole lines: what is gathered goes first, then these as they are.
        const flushed = flush()
        if (!res.write(record.bytes, record.written) || !flushed) await drained()
        if (gone) return
        continue
      }
      if (record instanceof Uint8Array) {
        parts.push(record)
        bytes += record.length
      } else {
        parts.push(...record)
        bytes += piecesLength(record)
      }
      parts.push(NEWLINE)
      bytes++
      if (bytes < CHUNK_BYTES) {
        timer ??= setTimeout(flush, FLUSH_MS)
        continue
      }
      if (!flush()) {
        await drained()
        if (gone) return
      }
    }
    if (!res.headersSent) {
      res.writeHead(204)
      return void res.end()
    }
    if (timer !== undefined) clearTimeout(timer)
    res.end(bytes > 0 ? joinPieces(parts, bytes) : undefined)
  } catch (error) {
    // An answer already begun cannot become an error: cut it, so the client sees it incomplete.
    if (!res.headersSent) throw error
    res.destroy()
  } finally {
    if (timer !== undefined) clearTimeout(timer)
    res.off('close', onClose)
    if (!done) await iterator.return?.()
  }
}

