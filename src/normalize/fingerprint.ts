/** The `fingerprint` option: keep, recompute (v1/v2), or fill only empty ones (v1). */
import { eventFingerprint } from '../fingerprint/index.js'
import type { Event } from '../schema/index.js'
import type { Options } from './context.js'

/** The event_fingerprint the option asks for, given the normalised source and summary. */
export function wantedFingerprint(event: Pick<Event, 'event_source' | 'summary' | 'event_fingerprint'>, options: Options): string {
  switch (options.fingerprint) {
    case 'keep':
      return event.event_fingerprint
    case 'missing':
      return event.event_fingerprint === '' ? eventFingerprint(event.event_source, event.summary, 1) : event.event_fingerprint
    case 'v1':
      return eventFingerprint(event.event_source, event.summary, 1)
    case 'v2':
      return eventFingerprint(event.event_source, event.summary, 2)
  }
}
