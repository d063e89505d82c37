/**
 * Every code block of README.md and docs/ (and docs/examples/) runs as written, or is marked
 * as illustrative with its reason (test/docs/markdown.ts says how). One service for all the
 * docs; the docs run side by side, each in its own folder, each doc's blocks in order.
 * A block that stops working fails here: test/docs/planted.test.ts shows it.
 */
import { join, relative } from 'node:path'
import type { ChildProcess } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../corpus/files.js'
import { fileTempDir } from '../support/temp.js'
import { binWithL9kit, docContext, docEnv, startService, stopService } from './context.js'
import { blocksOf, docFiles } from './markdown.js'
import { failures, runDoc } from './runner.js'


const dir = fileTempDir('l9kit-docs-')
const bin = binWithL9kit(ROOT, join(dir, 'bin'))
let service: { child: ChildProcess; port: number } | undefined

beforeAll(async () => {
  service = await startService('l9kit', ['serve', '--port', '0'], ROOT, docEnv(bin))
})
afterAll(async () => {
  if (service) await stopService(service.child)
})

describe.concurrent('every code block of the docs runs as written, or says why not', () => {
  for (const [i, file] of docFiles(ROOT).entries()) {
    it(file, async () => {
      const blocks = blocksOf(join(ROOT, file)).map((b) => ({ ...b, file: relative(ROOT, b.file) }))
      const ctx = await docContext(ROOT, join(dir, `doc-${i}`), service!.port, bin)
      const results = await runDoc(blocks, ctx)
      expect(failures(results)).toEqual([])
    }, 540_000)
  }
})
