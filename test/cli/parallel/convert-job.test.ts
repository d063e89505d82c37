/**
 * The convert job of `--jobs` reads every block as JSON Lines: the whole input was chosen to
 * be JSON Lines on its first line, so a block whose first line could open a document spread
 * over lines (`[` alone) must not be read as one, as the l9 and nuclei readers would on their own.
 */
import { describe, expect, it } from 'vitest'
import { create } from '../../../src/cli/parallel/jobs/convert.js'
import type { JobOutput } from '../../../src/cli/parallel/types.js'
import { emptyEvent } from '../../../src/schema/index.js'

const event = JSON.stringify({ ...emptyEvent(), event_type: 'service', event_source: 'test', ip: '192.0.2.1', port: '80', time: '2024-01-01T00:00:00Z' })

describe('convert job', () => {
  for (const from of ['l9', 'nuclei']) {
    it(`${from}: a block opening with "[" is read line by line, numbered as in the whole input`, async () => {
      const ctx = { runStart: '2024-01-01T00:00:00Z', fingerprint: 1 as const, maxLineBytes: 1 << 20 }
      const job = create({ job: 'convert', file: 'in.jsonl', maxLineBytes: 1 << 20, settings: { from, to: 'l9', fields: [], ctx } })
      const stderr: string[] = []
      const out: JobOutput = { streams: [[], stderr, []], counts: [0, 0, 0] }
      const bytes = new TextEncoder().encode(`[\n${event}\n`)
      if (!('block' in job)) throw new Error('the convert job works on whole blocks')
      await job.block({ seq: 3, firstLine: 10, firstOffset: 500, parts: [bytes] }, out)
      // Line 10 is not JSON; line 11 is a record of its own (l9 passes it on, nuclei finds no
      // finding in it). Read as one document, both lines would be a single broken record.
      expect(stderr[0]).toMatch(/^in\.jsonl:10: not valid JSON/)
      expect(out.counts[0]! + out.counts[1]!).toBe(2)
    })
  }
})
