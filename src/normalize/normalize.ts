/** normalize(): any lenient-valid event document to its strict, canonical form. */
import type { Event } from '../schema/index.js'
import { notAnEvent } from '../validate/event-rule.js'
import type { Issue } from '../validate/issue.js'
import { Context, describe, isObject, type NormalizeOptions, type Options, resolveOptions } from './context.js'
import { wantedFingerprint } from './fingerprint.js'
import { EVENT } from './shape.js'

export type NormalizeResult = { ok: true; event: Event; warnings: Issue[] } | { ok: false; errors: Issue[] }

/**
 * Turns a lenient event document into a strict-valid one in canonical member order: times to
 * canonical UTC, absent members filled, `null` arrays and maps to `[]`/`{}` (and empty `raw`,
 * `modules`, `ransom_notes` to `null`), numbers and numeric strings coerced, `transport`/`tags`
 * de-duplicated, header names per `headerCase`, `event_fingerprint` per `fingerprint`.
 * Unknown members are kept (after the known ones) and reported as warnings. Idempotent.
 * Never throws on bad input: every value it cannot normalise is an error with its pointer.
 * Members of the input that are already canonical are taken as they are, so the result may share
 * nested objects with `doc`: copy before changing either one.
 */
export function normalize(doc: unknown, opts?: NormalizeOptions): NormalizeResult {
  return normalizeWith(doc, resolveOptions(opts))
}

export function normalizeWith(doc: unknown, options: Options): NormalizeResult {
  const ctx = new Context(options)
  if (!isObject(doc)) {
    return { ok: false, errors: [{ code: 'not_object', pointer: '', message: `the document must be a JSON object, found ${describe(doc)}`, found: doc }] }
  }
  // The one rule for what an event is (validate/event-rule.ts): nothing of `{"foo": 1}` would be kept.
  const notEvent = notAnEvent(doc)
  if (notEvent) return { ok: false, errors: [notEvent] }
  const event = EVENT.fix(doc, '', ctx)
  if (ctx.errors.length > 0) return { ok: false, errors: ctx.errors }
  event.event_fingerprint = wantedFingerprint(event, options)
  return { ok: true, event, warnings: ctx.warnings }
}

/** True when `doc` is exactly what normalize() would return for it (no unknown members either). */
export function isCanonical(doc: unknown, options: Options): boolean {
  if (!EVENT.canonical(doc, options)) return false
  if (options.fingerprint === 'keep') return true
  const event = doc as Event
  return wantedFingerprint(event, options) === event.event_fingerprint
}
