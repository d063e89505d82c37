/** Parsing one record's JSON text, with the nesting bound applied before anything recurses. */
import type { Issue } from '../validate/issue.js'
import { textTooDeep, tooDeep } from './depth.js'

export type Parsed = { value: unknown } | { error: Issue }

/** The `bad_json` issue for a JSON.parse error. */
export function badJson(error: unknown): Issue {
  const detail = (error as Error).message.replace(/^JSON\.parse: /, '')
  return { code: 'bad_json', pointer: '', message: `not valid JSON: ${detail}` }
}

/**
 * Parses one record: `too_deep` when it nests deeper than MAX_DEPTH (checked on the text,
 * before parsing), `bad_json` (worded by `onBadJson`) when it is not JSON. Never throws.
 */
export function parseRecord(text: string, onBadJson: (error: unknown) => Issue = badJson): Parsed {
  if (textTooDeep(text)) return { error: tooDeep() }
  try {
    return { value: JSON.parse(text) }
  } catch (error) {
    return { error: error instanceof RangeError ? tooDeep() : onBadJson(error) }
  }
}

/** Whether `text` is one JSON value on its own (used to tell JSON Lines from a document spread over lines). */
export function isJsonText(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}
