/**
 * Entry point of a prepare worker thread (large ingests, see prepare-pool.ts): turns each
 * batch of JSON texts (or their UTF-8 bytes) it is sent into their prepare() results, in the
 * same order, packed (prepare-batch.ts, packAnswer): the accepted documents' canonical bytes
 * and their index fields; the parsed event is left out (a listener parses the JSON when
 * needed). The thread first lowers its own scheduling priority (workerData.nice), so that on
 * a busy machine the thread answering lookups gets the CPU first.
 */
import { readlinkSync } from 'node:fs'
import { setPriority } from 'node:os'
import { parentPort, workerData } from 'node:worker_threads'
import { JsonText, prepare } from '../store/prepare.js'
import { batchTexts, moved, packAnswer, type PrepareBatch } from './prepare-batch.js'

lowerPriority((workerData as { nice?: number } | null)?.nice ?? 0)

/**
 * Sets this thread's niceness. Linux schedules threads on their own, and
 * /proc/thread-self names this one ("PID/task/TID"); lowering one's own priority needs no
 * privilege. Elsewhere (or without /proc) the thread keeps its priority.
 */
function lowerPriority(nice: number): void {
  if (nice <= 0) return
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop())
    if (Number.isSafeInteger(tid) && tid > 0) setPriority(tid, nice)
  } catch {
    // not Linux, or not allowed: run at the process's priority
  }
}

parentPort!.on('message', (batch: PrepareBatch) => {
  const texts = batchTexts(batch)
  const answer = packAnswer(batch, texts, texts.map((text) => prepare(new JsonText(text))))
  // The documents' bytes are moved, not copied (the batch's buffer goes back as it came).
  parentPort!.postMessage(answer, moved(answer))
})
