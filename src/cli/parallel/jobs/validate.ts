/** `validate` on a worker thread: counts are [valid, invalid]; everything goes to stdout. */
import { fromLine } from '../../../jsonl/index.js'
import { quietCanonical } from '../../commands/validate-canonical.js'
import { type ValidateSettings, validateRecord } from '../../commands/validate-record.js'
import type { JobFactory } from '../types.js'

export const create: JobFactory = (setup) => {
  const settings = setup.settings as ValidateSettings
  return {
    line(item, out) {
      // A canonical line is valid with nothing to say: no parse, no validator (validate-canonical.ts).
      if (!('error' in item) && quietCanonical(item.text, settings)) {
        out.counts[0]!++
        return
      }
      const record = fromLine(item) // as readRecords() reads a JSON Lines line
      const { ok, lines } = validateRecord(record, setup.file, settings)
      out.counts[ok ? 0 : 1]!++
      for (const line of lines) out.streams[0]!.push(line)
    },
  }
}
