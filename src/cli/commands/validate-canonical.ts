/**
 * `validate`'s short way for a line that is already canonical: one pass of the normaliser's
 * canonical pattern (normalize/text.ts) instead of JSON.parse and the compiled validator.
 * Canonical text passes both profiles (normalised output always passes strict: a property
 * test of the normaliser checks it) and has no unknown members, so the only thing the strict
 * profile could still say of it is a warning for a leak's stage or severity outside the known
 * lists. Loaded by the `--jobs` path, where a whole-input bare parse is the ceiling that this
 * path beats; anything it cannot vouch for takes the long way, which writes the same lines.
 */
import { resolveOptions } from '../../normalize/context.js'
import { isCanonicalText } from '../../normalize/text.js'
import { severities, stages } from '../../validate/compiled/members.js'
import type { ValidateSettings } from './validate-record.js'

const OPTIONS = resolveOptions({ fingerprint: 'keep' })

// In canonical text every `"` inside a string is escaped, and no member after `leak` (tags,
// geoip, network) holds an object of free names: the last such opening is the event's leak.
const LEAK_OPENING = ',"leak":{"stage":"'
// The leak's first members in canonical order; values with an escape take the long way.
const LEAK_VALUES = /([^"\\]*)","type":"(?:[^"\\]|\\.)*","severity":"([^"\\]*)"/y

/** Whether a leak's value is one the strict profile would not warn about. */
const known = (value: string, list: readonly string[]) => value === '' || list.includes(value)

/** True when `text` is canonical and valid under `settings` with nothing to print for it. */
export function quietCanonical(text: string, settings: ValidateSettings): boolean {
  if (!isCanonicalText(text, OPTIONS)) return false
  if (settings.profile !== 'strict' || !settings.showWarnings) return true
  const at = text.lastIndexOf(LEAK_OPENING)
  if (at === -1) return false
  LEAK_VALUES.lastIndex = at + LEAK_OPENING.length
  const m = LEAK_VALUES.exec(text)
  return m !== null && known(m[1]!, stages) && known(m[2]!, severities)
}
