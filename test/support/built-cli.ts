/**
 * Runs the built CLI (dist/cli/main.cjs, the package's bin, as `npm test` builds it first) as a child process:
 * for tests of `--jobs`, whose worker threads' entry point exists only there.
 */
import { spawn } from 'node:child_process'
import { createReadStream } from 'node:fs'
import { join } from 'node:path'

export const BUILT_CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.cjs')

export interface BuiltRun {
  code: number | null
  stdout: string
  stderr: string
}

/** `node dist/cli/main.cjs ...args`, with `stdinFile` (if any) on standard input. */
export function runBuilt(args: string[], stdinFile?: string): Promise<BuiltRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BUILT_CLI, ...args], { stdio: ['pipe', 'pipe', 'pipe'] })
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', (b: Buffer) => out.push(b))
    child.stderr.on('data', (b: Buffer) => err.push(b))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }))
    if (stdinFile) createReadStream(stdinFile).pipe(child.stdin)
    else child.stdin.end()
  })
}
