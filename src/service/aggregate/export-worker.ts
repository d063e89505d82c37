/**
 * Entry point of the bulk export's worker thread (export-thread.ts): makes the aggregation lines
 * of each batch it is sent (lines.ts, LineMaker, the same code the service runs in-thread for a
 * small export) and sends them back as one buffer, each line ending with a newline. An export's
 * unfinished resource waits for its next batch; a dropped export's is forgotten.
 */
import { parentPort } from 'node:worker_threads'
import { type ExportAnswer, type ExportBatch, type ExportDrop, type ExportRecycle, movedOf, roomFor } from './export-batch.js'
import { type AggregationLine, LineMaker } from './lines.js'
import { piecesRoom, writePieces } from './pieces.js'

const makers = new Map<number, LineMaker>()
/** Answer buffers the exports gave back once written (a few: they are about the same size). */
const spares: ArrayBuffer[] = []
const SPARES = 3
const NEWLINE = 0x0a

/** The lines of one batch. */
function answerBatch(batch: ExportBatch): ExportAnswer {
  let maker = makers.get(batch.export)
  if (maker === undefined) {
    maker = new LineMaker(batch.now)
    makers.set(batch.export, maker)
  }
  const bytes = Buffer.from(batch.bytes)
  const lines: AggregationLine[] = []
  let start = 0
  for (let i = 0; i < batch.ends.length; i++) {
    const end = batch.ends[i]!
    const line = maker.add(bytes.subarray(start, end), batch.first[i]!, batch.last[i]!)
    if (line !== undefined) lines.push(line)
    start = end
  }
  if (batch.final) {
    const line = maker.finish()
    if (line !== undefined) lines.push(line)
    makers.delete(batch.export)
  } else maker.detach(batch.bytes)
  // The batch's buffer is no longer read: back to the export for its next batch.
  const spent = batch.bytes
  if (lines.length === 0) return { export: batch.export, spent }
  // Room for the lines, a little more than they take (their strings counted at three bytes a unit).
  let room = lines.length
  for (const line of lines) room += piecesRoom(line)
  // A buffer given back, or one of its own (never one of the shared pool's), so that it can be moved.
  const spare = spares.findIndex((b) => b.byteLength >= room)
  const out = spare >= 0 ? Buffer.from(spares.splice(spare, 1)[0]!) : Buffer.allocUnsafeSlow(roomFor(room))
  let at = 0
  for (const line of lines) {
    at = writePieces(out, at, line)
    out[at++] = NEWLINE
  }
  return { export: batch.export, lines: out.buffer as ArrayBuffer, length: at, spent }
}

if (parentPort !== null) {
  const port = parentPort
  port.on('message', (message: ExportBatch | ExportDrop | ExportRecycle) => {
    if ('recycle' in message) return void (spares.length < SPARES && spares.push(message.recycle))
    if ('drop' in message) return void makers.delete(message.export)
    let reply: ExportAnswer
    try {
      reply = answerBatch(message)
    } catch (error) {
      makers.delete(message.export)
      reply = { export: message.export, error: (error as Error).message }
    }
    port.postMessage(reply, movedOf(reply))
  })
}
