/** `validate` on a worker thread: counts are [valid, invalid]; everything goes to stdout. */
import { fromLine, type JsonRecord, recordsOf } from '../../../jsonl/index.js'
import { quietCanonical } from '../../commands/validate-canonical.js'
import { documentsOf, judgeFor, type ValidateSettings, validateRecord } from '../../commands/validate-record.js'
import type { Judge } from '../../../validate/load-judge.js'
import type { JobFactory, JobOutput } from '../types.js'

/** The verdict on one record, as the command's own loop judges it. */
function judgeRecord(one: JsonRecord, file: string, settings: ValidateSettings, judge: Judge, out: JobOutput): void {
  for (const record of documentsOf(one, settings)) {
    const { ok, lines } = validateRecord(record, file, settings, judge)
    out.counts[ok ? 0 : 1]!++
    for (const line of lines) out.streams[0]!.push(line)
  }
}

export const create: JobFactory = async (setup) => {
  const settings = setup.settings as ValidateSettings
  const judge = await judgeFor(settings)
  return {
    // As the command's own loop reads (readRecords' arrayElements).
    elements: settings.arrays,
    line(item, out) {
      // A canonical line is valid with nothing to say: no parse, no validator (validate-canonical.ts).
      // A line whose bytes were not UTF-8 has something to say (validate-record.ts): the long way.
      if ((settings.document ?? 'event') === 'event' && !('error' in item) && !item.invalidUtf8 && quietCanonical(item.text, settings)) {
        out.counts[0]!++
        return
      }
      // As readRecords() reads a record (several for a line holding several values).
      const record = fromLine(item)
      if (!('error' in record) || record.error.code !== 'bad_json') judgeRecord(record, setup.file, settings, judge, out)
      else for (const one of recordsOf(item)) judgeRecord(one, setup.file, settings, judge, out)
    },
  }
}
