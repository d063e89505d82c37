/**
 * Entry point of a `--jobs` worker thread: loads one command's job, then turns each block of
 * lines it is sent into that command's output for those lines, numbered as in the whole input.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { blockRunner } from './jobs/index.js'
import type { Block, JobSetup } from './types.js'

const run = await blockRunner(workerData as JobSetup)
// Blocks are handled one at a time, in the order sent (a converter's block is asynchronous).
let queue = Promise.resolve()
parentPort!.on('message', (block: Block) => {
  queue = queue.then(async () => parentPort!.postMessage(await run(block)))
})
