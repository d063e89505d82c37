/**
 * The live stream's configuration member `live_buffer_bytes`: how many unread bytes a subscriber
 * may have queued before it is disconnected as a slow consumer (docs/service.md, "Live stream").
 * Which plans may subscribe is the plans' own `live` member (auth/plans.ts).
 */

type Problem = (pointer: string, message: string) => void

/** Default: 4 MiB, some 1 600 events of 2.5 KB. */
export const DEFAULT_LIVE_BUFFER_BYTES = 4 * 1024 * 1024

/** Reads `live_buffer_bytes`; undefined when absent or wrong (reported). */
export function readLiveBufferBytes(doc: Record<string, unknown>, problem: Problem): number | undefined {
  const value = doc.live_buffer_bytes
  if (value === undefined) return undefined
  if (Number.isSafeInteger(value) && (value as number) >= 1024) return value as number
  problem('/live_buffer_bytes', `must be an integer of at least 1024 bytes (got ${JSON.stringify(value)?.slice(0, 40) ?? 'nothing'})`)
  return undefined
}
