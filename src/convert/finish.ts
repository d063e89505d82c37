/**
 * The last step of every converter: stamp source and pipeline, normalise (which checks the
 * strict profile and computes the fingerprint). A document that does not come out strict
 * is a Problem, never a silent drop.
 */
import { eventFingerprint } from '../fingerprint/index.js'
import { isCanonical, normalize, resolveOptions } from '../normalize/index.js'
import type { Event } from '../schema/index.js'
import type { ConvertContext, Problem } from './types.js'

/** Name l9kit's converter appends to `event_pipeline` after the tool's own name. */
export const CONVERTER_NAME = 'l9kit'

const KEEP = resolveOptions({ fingerprint: 'keep' })

/**
 * Stamps and fingerprints `draft`. `canonical`: the converter vouches that the draft is
 * strict as built (RecordFormat.canonical), so the strict check of every member is skipped.
 */
export function finishEvent(draft: Event, tool: string, ctx: ConvertContext, where: string, line?: number, canonical = false): Event | Problem {
  draft.event_source = tool
  draft.event_pipeline = [tool, CONVERTER_NAME]
  draft.event_fingerprint = ''
  // Most drafts are canonical already (built from emptyEvent() with canonical values): then
  // only the fingerprint is missing, and the full normaliser is not needed.
  if (canonical || isCanonical(draft, KEEP)) {
    draft.event_fingerprint = eventFingerprint(draft.event_source, draft.summary, ctx.fingerprint)
    return draft
  }
  const result = normalize(draft, { fingerprint: ctx.fingerprint === 2 ? 'v2' : 'v1' })
  if (result.ok) return result.event
  const reason = result.errors.map((e) => `${e.pointer || '/'}: ${e.message}`).join('; ')
  return { kind: 'problem', where, ...(line === undefined ? {} : { line }), reason: `converted document is not valid: ${reason}` }
}
