/**
 * The live stream's configuration member `live_buffer_bytes`: how many unread bytes a subscriber
 * may have queued before it is disconnected as a slow consumer (docs/service.md, "Live stream").
 * Which plans may subscribe is the plans' own `live` member (auth/plans.ts).
 */

import { type Problem, readInteger } from '../config-reading.js'

/** Default: 4 MiB, some 1 600 events of 2.5 KB. */
export const DEFAULT_LIVE_BUFFER_BYTES = 4 * 1024 * 1024

/** Reads `live_buffer_bytes`; undefined when absent or wrong (reported). */
export function readLiveBufferBytes(doc: Record<string, unknown>, problem: Problem): number | undefined {
  return readInteger(doc, 'live_buffer_bytes', '', 1024, Number.MAX_SAFE_INTEGER, 'an integer of at least 1024 bytes', problem)
}
