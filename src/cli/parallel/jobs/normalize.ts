/** `normalize` on a worker thread: counts are [normalised, failed]; streams stdout, stderr, --rejects. */
import type { NormalizeTextResult } from '../../../normalize/index.js'
import type { Options } from '../../../normalize/context.js'
import type { Edit } from '../../../normalize/pattern.js'
import { type NormalizedRecord, normalizeItem } from '../../../normalize/stream.js'
import { normalizeOutput } from '../../commands/normalize-record.js'
import type { LineList } from '../output.js'
import type { BlockLineItem, JobFactory, JobOutput } from '../types.js'

export interface NormalizeJobSettings {
  options: Options
  showWarnings: boolean
  /** --check: name the records that are not canonical, write no documents. */
  check: boolean
  rejects: boolean
}

const NO_EDITS: readonly Edit[] = []

/**
 * Writes `text`, the document normalised from `item`: as the line's own bytes, around the
 * edits that made it, when the normaliser kept or rewrote the line in place (no encoding of
 * the whole text again); else as text.
 */
function writeDocument(stdout: LineList, text: string, item: BlockLineItem, result: NormalizeTextResult): void {
  if (stdout.pushFrom && 'bytes' in item && item.bytes && result.ok && text === result.text) {
    const edits = result.changed ? result.edits : NO_EDITS
    if (edits) {
      stdout.pushFrom(item.bytes, item.text, edits)
      return
    }
  }
  stdout.push(text)
}

/** One record's output; `item` the line it came from (its bytes, when they are the record's). */
function write(record: NormalizedRecord, item: BlockLineItem, file: string, settings: NormalizeJobSettings, out: JobOutput): void {
  const result = normalizeOutput(record, file, settings)
  out.counts[result.ok ? 0 : 1]!++
  if (result.out !== undefined) writeDocument(out.streams[0]!, result.out, item, record.result)
  for (const line of result.err) out.streams[1]!.push(line)
  if (settings.rejects && result.reject !== undefined) out.streams[2]!.push(result.reject)
}

export const create: JobFactory = (setup) => {
  const settings = setup.settings as NormalizeJobSettings
  return {
    line(item, out) {
      // As normalizeRecords() reads a record, and as the command's own loop writes it.
      const records = normalizeItem(item, settings.options)
      if (!Array.isArray(records)) write(records, item, setup.file, settings, out)
      // Several values on one line: the line's bytes stand for none of them.
      else for (const record of records) write(record, { ...item, bytes: undefined } as BlockLineItem, setup.file, settings, out)
    },
  }
}
