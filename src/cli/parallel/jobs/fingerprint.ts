/** `fingerprint` on a worker thread: counts are [failed]; fingerprints to stdout, problems to stderr. */
import { parseRecord } from '../../../jsonl/index.js'
import { fingerprintRecord } from '../../commands/fingerprint-record.js'
import { issueLine } from '../../inputs.js'
import type { JobFactory } from '../types.js'

export const create: JobFactory = (setup) => {
  const version = setup.settings as 1 | 2
  return {
    line(item, out) {
      // A JSON Lines line as readRecords() reads it.
      const record = 'error' in item ? { line: item.line, offset: item.offset, text: '', error: item.error } : { line: item.line, offset: item.offset, text: item.text, ...parseRecord(item.text) }
      const result = fingerprintRecord(record, version)
      if (typeof result === 'string') out.streams[0]!.push(result)
      else {
        out.counts[0]!++
        out.streams[1]!.push(issueLine(setup.file, record.line, result))
      }
    },
  }
}
