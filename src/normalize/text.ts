/**
 * Normalising one JSON text (a JSON Lines record). A record already in canonical form is
 * recognised by one compiled pattern over its text (pattern.ts), without re-serialising it,
 * and is returned as the very input string. A record that differs from canonical only in
 * common lenient values (a port as a number, `null` for an empty list, a status as a
 * string, a time with an offset) is rewritten in place by a second pattern, without being
 * parsed either. Only the others are parsed, normalised and written.
 */
import { parseRecord } from '../jsonl/parse.js'
import type { Issue } from '../validate/issue.js'
import { type NormalizeOptions, type Options, resolveOptions } from './context.js'
import { wantedFingerprint } from './fingerprint.js'
import { normalizeWith } from './normalize.js'
import { goEscape } from './go-escape.js'
import { applyEdits, compile, type Edit, rewriteEdits } from './pattern.js'
import { writeCanonical } from './serialize.js'
import { EVENT } from './shape.js'

export type NormalizeTextResult =
  | {
      ok: true
      text: string
      changed: boolean
      warnings: Issue[]
      /**
       * When `text` is the input rewritten in place: the edits that make it (positions in the
       * input text). A writer holding the input's bytes copies them around the edits.
       */
      edits?: readonly Edit[]
    }
  | { ok: false; errors: Issue[] }

const NO_WARNINGS: Issue[] = []
let canonicalShape: ReturnType<typeof compile> | undefined
let lenientShape: ReturnType<typeof rewriteEdits> | undefined

/**
 * True when `text` is byte for byte what normalize + serialize would write for it, before
 * `escape: 'go'` (see escaped()). `value` is the text already parsed, if the caller has it
 * (needed only for `fingerprint` other than `keep`).
 */
export function isCanonicalText(text: string, options: Options, value?: unknown): boolean {
  canonicalShape ??= compile(EVENT.pattern)
  if (!canonicalShape(text, options)) return false
  if (options.fingerprint === 'keep') return true
  const event = (value ?? JSON.parse(text)) as Parameters<typeof wantedFingerprint>[0]
  return wantedFingerprint(event, options) === event.event_fingerprint
}

/**
 * The canonical text of `text`, and the edits that make it, when only lenient values the
 * shapes' rewrite patterns know stand between it and canonical form (none of which fix()
 * warns about), else undefined.
 */
function rewrittenText(text: string, options: Options): { text: string; edits: Edit[] } | undefined {
  lenientShape ??= rewriteEdits(EVENT.lenient!)
  const edits = lenientShape(text, options)
  if (edits === undefined) return undefined
  const out = applyEdits(text, edits)
  if (options.fingerprint === 'keep') return { text: out, edits }
  const event = JSON.parse(out) as Parameters<typeof wantedFingerprint>[0]
  return wantedFingerprint(event, options) === event.event_fingerprint ? { text: out, edits } : undefined
}

/** Normalises a record already parsed from `text` ('' when there is no text of its own). */
export function normalizeParsed(value: unknown, text: string, options: Options): NormalizeTextResult {
  if (text !== '' && isCanonicalText(text, options, value)) return written(text, text, options, NO_WARNINGS)
  return normalizeValue(value, text, options)
}

function normalizeValue(value: unknown, text: string, options: Options): NormalizeTextResult {
  const result = normalizeWith(value, options)
  if (!result.ok) return result
  // normalize() builds members in canonical order already: only header names may need sorting.
  const out = writeCanonical(result.event, options.headerOrder, options.escape)
  return { ok: true, text: out, changed: out !== text, warnings: result.warnings }
}

/** The result for `canonical` (plain canonical text of the record `text`), escaped as asked. */
function written(canonical: string, text: string, options: Options, warnings: Issue[]): NormalizeTextResult {
  const out = options.escape === 'go' ? goEscape(canonical) : canonical
  return { ok: true, text: out, changed: out !== text, warnings }
}

/**
 * Normalises one JSON text to canonical compact JSON (or reports why it cannot). Canonical
 * input is returned unchanged, without being parsed (with `fingerprint: 'keep'`).
 */
export function normalizeText(text: string, opts?: NormalizeOptions): NormalizeTextResult {
  return normalizeTextWith(text, resolveOptions(opts))
}

const defaultBadJson = (error: unknown): Issue => ({ code: 'bad_json', pointer: '', message: `not valid JSON: ${(error as Error).message}` })

/**
 * Whether the last text was rewritten in place. Records come in runs of one kind (a tool's
 * output is rewritten line after line): after a rewritten one, the rewrite pattern goes
 * first, sparing each line a failed match of the canonical one (a sixth of the time of a
 * rewritten line). Either order gives the same result: each pattern answers only with what
 * the full path writes (test/normalize/pattern.test.ts), and the rewrite pattern takes
 * canonical text too, as no edits (which turns the order back).
 */
let rewriting = false

/** normalizeText with resolved options; `badJson` words the error of a text that is not JSON. */
export function normalizeTextWith(text: string, options: Options, badJson: (error: unknown) => Issue = defaultBadJson): NormalizeTextResult {
  if (!rewriting && isCanonicalText(text, options)) return written(text, text, options, NO_WARNINGS)
  const rewritten = rewrittenText(text, options)
  if (rewritten !== undefined) {
    rewriting = rewritten.edits.length > 0
    const result = written(rewritten.text, text, options, NO_WARNINGS)
    // The edits stand for the text unless `--escape go` changed it further.
    if (result.ok && result.text === rewritten.text) result.edits = rewritten.edits
    return result
  }
  if (rewriting) {
    rewriting = false
    if (isCanonicalText(text, options)) return written(text, text, options, NO_WARNINGS)
  }
  const parsed = parseRecord(text, badJson) // refuses a record nested deeper than MAX_DEPTH
  if ('error' in parsed) return { ok: false, errors: [parsed.error] }
  return normalizeValue(parsed.value, text, options)
}
