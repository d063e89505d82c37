/** What goes between the search evaluation thread and the service (eval-thread.ts, eval-worker.ts). */
import type { EvalBatch } from '../store/evaluator.js'

export interface EvalRequest {
  id: number
  batch: EvalBatch
}

/** One byte per event of the batch (1: it matches), or why the batch could not be evaluated. */
export interface EvalAnswer {
  id: number
  hits?: Uint8Array
  error?: string
}
