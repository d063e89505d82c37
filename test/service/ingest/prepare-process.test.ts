/** Prepare workers in child processes (issue 21): their failures, and their part in the process's lifetime. */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { ProcessWorker } from '../../../src/service/ingest/prepare-process.js'

const dir = mkdtempSync(join(tmpdir(), 'l9kit-prepare-process-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('prepare worker processes', () => {
  it('refuses every batch, naming why, when the process fails, and has no process left to close', async () => {
    const entry = join(dir, 'broken.mjs')
    writeFileSync(entry, "throw new Error('this worker cannot start')\n")
    const worker = new ProcessWorker(pathToFileURL(entry), 0)
    const first = worker.prepare({ bytes: new Uint8Array(0), items: ['{}'] })
    await expect(first).rejects.toThrow(/a prepare process stopped \(exit code 1\): .*this worker cannot start/s)
    expect(worker.failed).toBe(true)
    await expect(worker.prepare({ bytes: new Uint8Array(0), items: ['{}'] })).rejects.toThrow(/this worker cannot start/)
    await worker.close() // (already gone: returns at once)
  })

  it('keeps the process alive only while it has batches to answer', () => {
    // A process that starts a pool, has one batch prepared, prints it, and then has nothing
    // left to do: it must end by itself, and its worker process with it.
    const script = `
      import { PreparePool, prepareWorkerUrl } from ${JSON.stringify(new URL('../../../src/service/ingest/prepare-pool.ts', import.meta.url).href)}
      const pool = new PreparePool(prepareWorkerUrl(), 1, 0, 'process')
      const [r] = await pool.prepare({ bytes: new Uint8Array(0), items: ['[]'] })
      console.log(r.ok ? 'accepted' : 'refused')
    `
    // tsx compiles the sources first: long on a busy machine, so a generous bound.
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 240_000 })
    expect(run.error).toBeUndefined() // (a timeout would be an error here)
    expect(run.stdout.trim()).toBe('refused')
    expect(run.status).toBe(0)
  }, 300_000)
})
