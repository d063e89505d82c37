/**
 * Entry point of a prepare worker thread (large ingests, see prepare-pool.ts): turns each
 * batch of JSON texts (or their UTF-8 bytes) it is sent into their prepare() results, in the
 * same order, packed (prepare-batch.ts, packAnswer): the accepted documents' canonical bytes
 * and their index fields; the parsed event is left out (a listener parses the JSON when
 * needed). The thread first lowers its own scheduling priority (workerData.priority, see
 * worker-priority.ts), so that the thread answering lookups, and their clients, get the CPU first.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { JsonText, prepare } from '../store/prepare.js'
import { batchTexts, moved, packAnswer, type PrepareBatch } from './prepare-batch.js'
import { lowerOwnPriority, type WorkerPriority } from './worker-priority.js'

lowerOwnPriority((workerData as { priority?: WorkerPriority } | null)?.priority ?? 0)

parentPort!.on('message', (batch: PrepareBatch) => {
  const texts = batchTexts(batch)
  const answer = packAnswer(batch, texts, texts.map((text) => prepare(new JsonText(text))))
  // The documents' bytes are moved, not copied (the batch's buffer goes back as it came).
  parentPort!.postMessage(answer, moved(answer))
})
