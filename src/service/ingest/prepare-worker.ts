/**
 * Entry point of a prepare worker (large ingests, see prepare-pool.ts), run as a worker thread
 * or as a child process: turns each batch of JSON texts (or their UTF-8 bytes) it is sent into
 * their prepare() results, in the same order, packed (prepare-batch.ts, packAnswer): the
 * accepted documents' canonical bytes and their index fields; the parsed event is left out (a
 * listener parses the JSON when needed).
 *
 * A thread first lowers its own scheduling priority (workerData.priority, see
 * worker-priority.ts), so that the thread answering lookups, and their clients, get the CPU
 * first; a child process was started at its priority, and leaves when its parent does.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { JsonText, prepare } from '../store/prepare.js'
import { batchTexts, moved, packAnswer, type PrepareBatch } from './prepare-batch.js'
import { lowerOwnPriority, type WorkerPriority } from './worker-priority.js'

const answer = (batch: PrepareBatch) => {
  const texts = batchTexts(batch)
  return packAnswer(batch, texts, texts.map((text) => prepare(new JsonText(text))))
}

if (parentPort !== null) {
  const port = parentPort
  lowerOwnPriority((workerData as { priority?: WorkerPriority } | null)?.priority ?? 0)
  port.on('message', (batch: PrepareBatch) => {
    const packed = answer(batch)
    // The documents' bytes are moved, not copied (the batch's buffer goes back as it came).
    port.postMessage(packed, moved(packed))
  })
} else if (process.send !== undefined) {
  process.on('disconnect', () => process.exit(0))
  process.on('message', (batch: PrepareBatch) => {
    const { bytes, ...packed } = answer(batch)
    // The batch's own buffer stays out of the answer: the parent still has it.
    process.send!(bytes === batch.bytes ? packed : { ...packed, bytes })
  })
}
