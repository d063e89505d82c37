import type { Event } from '../../../schema/index.js'

/**
 * Finding events by tag without parsing every one: a stored event that carries a tag holds the
 * tag's leading plain characters in its bytes, whatever escaping its JSON writer used (printable
 * ASCII other than `"`, `\`, `<`, `>`, `&` and `'` is never escaped). Bytes without them are
 * skipped; the rest are parsed and checked exactly by the caller.
 */

/** Canonical JSON of an event without tags: when the tag has no plain start, only these are skipped. */
const EMPTY_TAGS = Buffer.from('"tags":[]')

/** The start of `tag` that no JSON writer escapes. */
function plainPrefix(tag: string): string {
  let end = 0
  while (end < tag.length && /[\x20-\x7e]/.test(tag[end]!) && !`"\\<>&'`.includes(tag[end]!)) end++
  return tag.slice(0, end)
}

/** A test of an event's bytes: false when they cannot hold `tag`, true when they may (parse them to know). */
function tagScan(tag: string): (bytes: Buffer) => boolean {
  const needle = Buffer.from(plainPrefix(tag), 'utf8')
  if (needle.length === 0) return (bytes) => bytes.indexOf(EMPTY_TAGS) === -1
  return (bytes) => bytes.indexOf(needle) !== -1
}

/** Calls `found` with each entry among 0…count−1 (`bytesOf` null: deleted) whose event's `tags` hold `tag`. */
export function forEachTagged(tag: string, count: number, bytesOf: (id: number) => Buffer | null, found: (id: number, event: Event) => void): void {
  const mayHold = tagScan(tag)
  for (let id = 0; id < count; id++) {
    const bytes = bytesOf(id)
    if (bytes === null || !mayHold(bytes)) continue
    const event = JSON.parse(bytes.toString('utf8')) as Event
    if (Array.isArray(event.tags) && event.tags.includes(tag)) found(id, event)
  }
}
