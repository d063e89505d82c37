/**
 * The last step of every converter: stamp source and pipeline, normalise (which checks the
 * strict profile and computes the fingerprint). A document that does not come out strict
 * is a Problem, never a silent drop.
 */
import { normalize } from '../normalize/index.js'
import type { Event } from '../schema/index.js'
import type { ConvertContext, Problem } from './types.js'

/** Name l9kit's converter appends to `event_pipeline` after the tool's own name. */
export const CONVERTER_NAME = 'l9kit'

export function finishEvent(draft: Event, tool: string, ctx: ConvertContext, where: string, line?: number): Event | Problem {
  draft.event_source = tool
  draft.event_pipeline = [tool, CONVERTER_NAME]
  draft.event_fingerprint = ''
  const result = normalize(draft, { fingerprint: ctx.fingerprint === 2 ? 'v2' : 'v1' })
  if (result.ok) return result.event
  const reason = result.errors.map((e) => `${e.pointer || '/'}: ${e.message}`).join('; ')
  return { kind: 'problem', where, ...(line === undefined ? {} : { line }), reason: `converted document is not valid: ${reason}` }
}
