/** The job of each command that can run on several threads, loaded on demand. */
import type { Block, BlockResult, JobFactory, JobName, JobOutput, JobSetup } from '../types.js'
import { linesOf } from '../lines.js'

const JOBS: Record<JobName, () => Promise<{ create: JobFactory }>> = {
  validate: () => import('./validate.js'),
  normalize: () => import('./normalize.js'),
  fingerprint: () => import('./fingerprint.js'),
  convert: () => import('./convert.js'),
}

/** The command's output for one block (run in a worker, or on the main thread). */
export type BlockRunner = (block: Block) => BlockResult | Promise<BlockResult>

/** Loads the job named in `setup` and returns what turns a block into its output. */
export async function blockRunner(setup: JobSetup): Promise<BlockRunner> {
  const job = (await JOBS[setup.job]()).create(setup)
  const result = (block: Block, out: JobOutput): BlockResult => ({ seq: block.seq, texts: out.streams.map((lines) => (lines.length === 0 ? null : lines.join('\n'))), counts: out.counts })
  const fresh = (): JobOutput => ({ streams: [[], [], []], counts: [0, 0, 0] })
  if ('block' in job) {
    return async (block) => {
      const out = fresh()
      await job.block(block, out)
      return result(block, out)
    }
  }
  return (block) => {
    const out = fresh()
    for (const item of linesOf(block, setup.maxLineBytes)) job.line(item, out)
    return result(block, out)
  }
}
