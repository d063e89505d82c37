/** `fingerprint` on a worker thread: counts are [failed]; fingerprints to stdout, problems to stderr. */
import { fromLine } from '../../../jsonl/index.js'
import { fingerprintRecord } from '../../commands/fingerprint-record.js'
import { issueLine } from '../../inputs.js'
import type { JobFactory } from '../types.js'

export const create: JobFactory = (setup) => {
  const version = setup.settings as 1 | 2
  return {
    line(item, out) {
      const record = fromLine(item) // as readRecords() reads a JSON Lines line
      const result = fingerprintRecord(record, version)
      if (typeof result === 'string') out.streams[0]!.push(result)
      else {
        out.counts[0]!++
        out.streams[1]!.push(issueLine(setup.file, record.line, result))
      }
    },
  }
}
