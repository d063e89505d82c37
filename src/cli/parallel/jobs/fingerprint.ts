/** `fingerprint` on a worker thread: counts are [failed]; fingerprints to stdout, problems to stderr. */
import { fromLine, type JsonRecord, recordsOf } from '../../../jsonl/index.js'
import { fingerprintRecord } from '../../commands/fingerprint-record.js'
import { issueLine } from '../../inputs.js'
import type { JobFactory, JobOutput } from '../types.js'

function one(record: JsonRecord, file: string, version: 1 | 2, out: JobOutput): void {
  const result = fingerprintRecord(record, version)
  if (typeof result === 'string') out.streams[0]!.push(result)
  else {
    out.counts[0]!++
    out.streams[1]!.push(issueLine(file, record.line, result))
  }
}

export const create: JobFactory = (setup) => {
  const version = setup.settings as 1 | 2
  return {
    line(item, out) {
      // As readRecords() reads a record (several for a line holding several values).
      const record = fromLine(item)
      if (!('error' in record) || record.error.code !== 'bad_json') one(record, setup.file, version, out)
      else for (const r of recordsOf(item)) one(r, setup.file, version, out)
    },
  }
}
