/**
 * Entry point of the search evaluation thread (eval-thread.ts): answers each batch of events
 * it is sent with which of them match the batch's query (store/evaluator.ts). It first lowers
 * its own scheduling priority (workerData.priority: the idle class by default), so that the
 * thread answering lookups gets the CPU first.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { evaluateBatch, type EvalBatch, QueryCache } from '../store/evaluator.js'
import { lowerOwnPriority, type WorkerPriority } from '../ingest/worker-priority.js'
import type { EvalAnswer, EvalRequest } from './eval-messages.js'

if (parentPort !== null) {
  const port = parentPort
  const queries = new QueryCache()
  lowerOwnPriority((workerData as { priority?: WorkerPriority } | null)?.priority ?? 0)
  port.on('message', ({ id, batch }: EvalRequest) => {
    let answer: EvalAnswer
    try {
      answer = { id, hits: evaluateBatch(queries.get(batch.query, batch.scope), batch as EvalBatch) }
    } catch (error) {
      answer = { id, error: (error as Error).message }
    }
    port.postMessage(answer, answer.hits === undefined ? [] : [answer.hits.buffer as ArrayBuffer])
  })
}
