/** Deleting the events that carry a tag (DELETE /admin/events?tag=: conform's clean-up). */
import type { Sql } from 'postgres'
import { storable } from '../../../query/index.js'
import { nowInstant } from '../plugin-windows.js'
import { addEventOf, type Changed, noChange, notifyChanged } from './changes.js'
import { countDeleted } from './plugin-counts.js'

/**
 * Deletes the events whose `tags` hold `tag` exactly; how many. A scan in which only rows
 * holding the tag's plain start have their tags read, through `l9kit_doc` (the document with NUL
 * and unpaired surrogates as U+FFFD, which PostgreSQL's text cannot hold: reading such a row's
 * tags as they are stops the statement), and compared with the tag made storable the same way.
 * The rows found are then checked here against the tag as given, so a tag that differs only in
 * such a character from another deletes only its own events; then deleted by id, and the plugin
 * counts lose them in the same transaction.
 */
export async function deleteTagged(sql: Sql, tag: string, changesChannel: string): Promise<{ deleted: number; changed: Changed }> {
  const plain = /^[^"\\<>&'\u0000-\u001f\u007f-\uffff]*/.exec(tag)![0]
  const found = await sql<{ id: string; json: string }[]>`
    SELECT id::text, json FROM events
    WHERE CASE WHEN strpos(json, ${plain}) > 0
      THEN EXISTS (SELECT 1 FROM json_array_elements_text(l9kit_doc(json) -> 'tags') t WHERE t = ${storable(tag)})
      ELSE false END`
  const rows = found.filter((row) => holdsTag(row.json, tag))
  const changed = noChange()
  if (rows.length === 0) return { deleted: 0, changed }
  const json = new Map(rows.map((row) => [row.id, row.json]))
  return sql.begin(async (tx) => {
    const deleted = await tx<{ id: string; source: string; first_seen: string }[]>`
      DELETE FROM events WHERE id = ANY(${[...json.keys()]}::bigint[])
      RETURNING id::text, source, first_seen::text`
    await countDeleted(tx, deleted, nowInstant())
    // The lookups' kept answers about what went (lookup-cache.ts), told at commit.
    for (const row of deleted) addEventOf(changed, json.get(row.id)!)
    await notifyChanged(tx, changesChannel, changed)
    return { deleted: deleted.length, changed }
  })
}

/** Whether the event's `tags` hold `tag` exactly (as JSON reads them, NUL and lone surrogates included). */
function holdsTag(json: string, tag: string): boolean {
  const tags = (JSON.parse(json) as { tags?: unknown }).tags
  return Array.isArray(tags) && tags.includes(tag)
}
