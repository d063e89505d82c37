/** The job of each command that can run on several threads, loaded on demand. */
import type { Block, BlockResult, JobFactory, JobName, JobOutput, JobSetup } from '../types.js'
import { linesOf } from '../lines.js'
import { ByteLines, giveBack, TextLines } from '../output.js'

/** A job's output with the streams a block's result is taken from. */
interface Output extends JobOutput {
  streams: [ByteLines, TextLines, ByteLines]
}

/** The bytes of a block's input. */
const blockBytes = (block: Block) => block.parts.reduce((n, part) => n + part.length, 0)

const JOBS: Record<JobName, () => Promise<{ create: JobFactory }>> = {
  validate: () => import('./validate.js'),
  normalize: () => import('./normalize.js'),
  fingerprint: () => import('./fingerprint.js'),
  convert: () => import('./convert.js'),
  filter: () => import('./filter.js'),
}

/** Loads job `name`'s module (a worker started early does so before it knows the rest). */
export const loadJob = (name: JobName) => JOBS[name]()

/** The command's output for one block (run in a worker, or on the main thread). */
export type BlockRunner = (block: Block) => BlockResult | Promise<BlockResult>

/** Loads the job named in `setup` and returns what turns a block into its output. */
export async function blockRunner(setup: JobSetup): Promise<BlockRunner> {
  const job = await (await loadJob(setup.job)).create(setup)
  const result = (block: Block, out: Output): BlockResult => ({
    seq: block.seq,
    texts: out.streams.map((lines) => lines.take()),
    counts: out.counts,
  })
  // stdout and the third output as bytes (see output.ts); stdout is sized for the block's documents.
  const fresh = (block: Block): Output => {
    if (block.out) giveBack(block.out)
    return { streams: [new ByteLines(blockBytes(block)), new TextLines(), new ByteLines()], counts: [0, 0, 0] }
  }
  if ('block' in job) {
    return async (block) => {
      const out = fresh(block)
      await job.block(block, out)
      return result(block, out)
    }
  }
  return (block) => {
    const out = fresh(block)
    for (const item of linesOf(block, setup.maxLineBytes, job.elements)) job.line(item, out)
    return result(block, out)
  }
}
