/**
 * The conformance-run rule (docs/hooks.md, docs/service.md "Live stream"): an event whose `tags`
 * hold `l9kit-conform:RUN` is a test event of conformance run RUN; it reaches only that run's
 * hooks (their URLs carry `l9kit-conform-run=RUN`) and live subscribers (their request carries
 * the same parameter), and those receive only their run's events. A conformance run then never
 * alerts, nor streams to, anyone else. Shared by the hook matcher and the live stream.
 */

/** Tag prefix that marks an event as a conformance run's test event (docs/hooks.md, docs/conformance.md). */
export const CONFORM_TAG_PREFIX = 'l9kit-conform:'
/** Query parameter of a hook URL, or of a live-stream request, that names the conformance run it belongs to. */
export const CONFORM_RUN_PARAMETER = 'l9kit-conform-run'

/** The runs named by an event's `l9kit-conform:RUN` tags. */
export function eventRuns(tags: readonly unknown[] | undefined): string[] {
  if (tags === undefined || tags.length === 0) return []
  const runs: string[] = []
  for (const tag of tags) if (typeof tag === 'string' && tag.startsWith(CONFORM_TAG_PREFIX)) runs.push(tag.slice(CONFORM_TAG_PREFIX.length))
  return runs
}

/**
 * Whether an event of `runs` goes to a receiver of run `receiverRun` (null: not a conformance
 * run's): a run's events to its own receivers only, and other events to everyone else.
 */
export function sameRun(receiverRun: string | null, subject: { runs: readonly string[] }): boolean {
  return receiverRun === null ? subject.runs.length === 0 : subject.runs.includes(receiverRun)
}

const MARK = Buffer.from(`"${CONFORM_TAG_PREFIX}`)

/** The runs of an event given as its canonical JSON, reading `parse()` only when its bytes may name one. */
export function runsOfBytes(bytes: Uint8Array, parse: () => unknown): string[] {
  if (Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(MARK) === -1) return []
  const tags = (parse() as { tags?: unknown } | null)?.tags
  return Array.isArray(tags) ? eventRuns(tags) : []
}
