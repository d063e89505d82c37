/**
 * Every converter's expected output is canonical: normalising it changes no byte, and (for
 * the converters that compute it) the fingerprint is the one the normaliser computes.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { normalizeText, resolveOptions } from '../../src/normalize/index.js'
import { TOOLS_CORPUS } from '../support/golden.js'

const KEEP = resolveOptions({ fingerprint: 'keep' })
const RECOMPUTE = resolveOptions({ fingerprint: 'v1' })

const files = readdirSync(TOOLS_CORPUS).flatMap((dir) =>
  readdirSync(join(TOOLS_CORPUS, dir))
    .filter((f) => f.endsWith('.expected.jsonl'))
    .map((f) => ({ dir, name: `${dir}/${f}`, path: join(TOOLS_CORPUS, dir, f) })),
)

describe('converted events are canonical', () => {
  for (const file of files) {
    it(file.name, () => {
      const lines = readFileSync(file.path, 'utf8').split('\n').filter((l) => l !== '')
      for (const [i, line] of lines.entries()) {
        const kept = normalizeText(line, KEEP)
        expect(kept.ok && kept.text, `${file.name}:${i + 1}`).toBe(line)
        // Event documents read with --from l9 keep the fingerprint they came with.
        if (file.dir === 'l9') continue
        const recomputed = normalizeText(line, RECOMPUTE)
        expect(recomputed.ok && recomputed.text, `${file.name}:${i + 1} fingerprint v1`).toBe(line)
      }
    })
  }
})
