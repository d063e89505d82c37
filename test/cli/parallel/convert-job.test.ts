/**
 * The convert job of `--jobs` reads a block as the sequential reader reads the same lines
 * (blocks start where a record does: blocks.ts), numbered as in the whole input: a block
 * opening with `[` alone opens an array spread over lines, as it would with `--jobs 1`.
 */
import { describe, expect, it } from 'vitest'
import { create } from '../../../src/cli/parallel/jobs/convert.js'
import type { JobOutput } from '../../../src/cli/parallel/types.js'
import { converterNamed } from '../../../src/convert/index.js'
import { emptyEvent } from '../../../src/schema/index.js'
import { convertText } from '../../support/golden.js'

const event = JSON.stringify({ ...emptyEvent(), event_type: 'service', event_source: 'test', ip: '192.0.2.1', port: '80', time: '2024-01-01T00:00:00Z' })

describe('convert job', () => {
  for (const from of ['l9', 'nuclei']) {
    it(`${from}: a block opening with "[" is read as the whole input would be, numbered as in it`, async () => {
      const ctx = { runStart: '2024-01-01T00:00:00Z', fingerprint: 1 as const, maxLineBytes: 1 << 20 }
      const job = create({ job: 'convert', file: 'in.jsonl', maxLineBytes: 1 << 20, settings: { from, to: 'l9', fields: [], ctx } })
      const stderr: string[] = []
      const out: JobOutput = { streams: [[], stderr, []], counts: [0, 0, 0] }
      const text = `[\n${event}\n`
      if (!('block' in job)) throw new Error('the convert job works on whole blocks')
      await job.block({ seq: 3, firstLine: 10, firstOffset: 500, parts: [new TextEncoder().encode(text)] }, out)
      const alone = await convertText(converterNamed(from)!, text)
      // The same problems, nine lines further down.
      expect(stderr).toEqual(alone.problems.map((p) => `in.jsonl:${p.line! + 9}: ${p.reason}`))
      expect(out.counts[0]).toBe(alone.events.length)
      expect(stderr.length).toBeGreaterThan(0)
    })
  }
})
