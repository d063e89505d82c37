/**
 * What `l9kit normalize` writes for one record: shared by the command's own loop and by its
 * worker threads (`--jobs`), so both write the same bytes.
 */
import type { NormalizedRecord } from '../../normalize/index.js'
import { issueLine, problemLine } from '../inputs.js'

/**
 * The lines one record gives: its canonical text (stdout; with --check, its name when it is
 * not canonical), its problems (stderr), its original (--rejects).
 */
export interface NormalizeOutput {
  ok: boolean
  out?: string
  err: string[]
  reject?: string
}

/** How the records are written: `check` names the records that are not canonical instead. */
export interface OutputSettings {
  showWarnings: boolean
  check: boolean
}

export function normalizeOutput(record: NormalizedRecord, file: string, settings: OutputSettings): NormalizeOutput {
  const { result } = record
  if (result.ok) {
    const err = settings.showWarnings ? result.warnings.map((w) => problemLine(file, record.line, w.pointer, `warning: ${w.message}`)) : []
    if (!settings.check) return { ok: true, out: result.text, err }
    // --check: one `file:line` per record that normalising would change (as gofmt -l names files).
    // A CR LF line or a byte order mark is rewritten too, its text unchanged (normalize writes LF, no mark).
    return result.changed || record.rewritten ? { ok: false, out: `${file}:${record.line}`, err } : { ok: true, err }
  }
  const err = result.errors.map((e) => issueLine(file, record.line, e))
  if (settings.check) return { ok: false, out: `${file}:${record.line}`, err }
  // Array elements have no text of their own: their JSON stands for them.
  const original = record.text !== '' ? record.text : record.value !== undefined ? JSON.stringify(record.value) : ''
  return original !== '' ? { ok: false, err, reject: original } : { ok: false, err }
}
