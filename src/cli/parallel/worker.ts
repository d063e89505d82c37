/**
 * Entry point of a `--jobs` worker thread: loads one command's job, then turns each block of
 * lines it is sent into that command's output for those lines, numbered as in the whole input.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { type BlockRunner, blockRunner, loadJob } from './jobs/index.js'
import type { Preload } from './prestart.js'
import type { Block, JobSetup } from './types.js'

const port = parentPort!
const data = workerData as JobSetup | Preload
// A worker started early (prestart.ts) knows only its job: it loads that now, and its setup
// comes as the first message.
let runner: Promise<BlockRunner> | undefined
if ('preload' in data) void loadJob(data.preload)
else runner = blockRunner(data)
// Blocks are handled one at a time, in the order sent (a converter's block is asynchronous).
let queue = Promise.resolve()
port.on('message', (message: Block | JobSetup) => {
  if (!runner) {
    runner = blockRunner(message as JobSetup)
    return
  }
  const run = runner
  queue = queue.then(async () => {
    const block = message as Block
    const result = await (await run)(block)
    // The input's memory goes back too: nothing here refers to it once the block is done.
    result.inputs = [...new Set(block.parts.map((part) => part.buffer as ArrayBuffer))]
    port.postMessage(result, [...result.texts.filter((t) => t instanceof Uint8Array).map((t) => t.buffer as ArrayBuffer), ...result.inputs])
  })
})
