/** The job of each command that can run on several threads, loaded on demand. */
import type { Block, BlockResult, JobFactory, JobName, JobOutput, JobSetup } from '../types.js'
import { linesOf } from '../lines.js'

const JOBS: Record<JobName, () => Promise<{ create: JobFactory }>> = {
  validate: () => import('./validate.js'),
  normalize: () => import('./normalize.js'),
  fingerprint: () => import('./fingerprint.js'),
  convert: () => import('./convert.js'),
}

/** Loads job `name`'s module (a worker started early does so before it knows the rest). */
export const loadJob = (name: JobName) => JOBS[name]()

/** The command's output for one block (run in a worker, or on the main thread). */
export type BlockRunner = (block: Block) => BlockResult | Promise<BlockResult>

/**
 * Streams given as bytes: stdout and the third output. A worker encodes them where the work
 * is and moves the bytes; the main thread would encode them to write them anyway. stderr
 * stays text (see BlockResult).
 */
const BYTE_STREAMS = [true, false, true]
/** One stream's lines: bytes with a newline after each (`asBytes`), or text joined by `\n`; null for none. */
function streamOutput(lines: string[], asBytes: boolean): string | Uint8Array | null {
  if (lines.length === 0) return null
  if (!asBytes) return lines.join('\n')
  // Each line encoded straight into place: no joined copy of the block's text to flatten and
  // encode again. allocUnsafeSlow gives memory of its own (never a pooled Buffer), so it can be moved.
  let size = lines.length
  for (const line of lines) size += Buffer.byteLength(line)
  const out = Buffer.allocUnsafeSlow(size)
  let at = 0
  for (const line of lines) {
    at += out.write(line, at)
    out[at++] = 0x0a
  }
  return out
}

/** Loads the job named in `setup` and returns what turns a block into its output. */
export async function blockRunner(setup: JobSetup): Promise<BlockRunner> {
  const job = (await loadJob(setup.job)).create(setup)
  const result = (block: Block, out: JobOutput): BlockResult => ({
    seq: block.seq,
    texts: out.streams.map((lines, i) => streamOutput(lines, BYTE_STREAMS[i]!)),
    counts: out.counts,
  })
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
