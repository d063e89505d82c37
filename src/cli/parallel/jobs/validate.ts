/** `validate` on a worker thread: counts are [valid, invalid]; everything goes to stdout. */
import { fromLine } from '../../../jsonl/index.js'
import { quietCanonical } from '../../commands/validate-canonical.js'
import { documentsOf, type ValidateSettings, validateRecord } from '../../commands/validate-record.js'
import type { JobFactory } from '../types.js'

export const create: JobFactory = (setup) => {
  const settings = setup.settings as ValidateSettings
  return {
    line(item, out) {
      // A canonical line is valid with nothing to say: no parse, no validator (validate-canonical.ts).
      if ((settings.document ?? 'event') === 'event' && !('error' in item) && quietCanonical(item.text, settings)) {
        out.counts[0]!++
        return
      }
      // As readRecords() reads a JSON Lines line, and as the command's own loop judges it.
      for (const record of documentsOf(fromLine(item), settings)) {
        const { ok, lines } = validateRecord(record, setup.file, settings)
        out.counts[ok ? 0 : 1]!++
        for (const line of lines) out.streams[0]!.push(line)
      }
    },
  }
}
