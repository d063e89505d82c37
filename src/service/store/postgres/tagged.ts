/** Deleting the events that carry a tag (DELETE /admin/events?tag=: conform's clean-up). */
import type { Sql } from 'postgres'
import { nowInstant } from '../plugin-windows.js'
import { countDeleted } from './plugin-counts.js'

/**
 * Deletes the events whose `tags` hold `tag`; how many. A scan in which only rows holding the
 * tag's plain start have their tags read (as `json`, which takes any stored text: jsonb could
 * refuse a row). The plugin counts lose the deleted events in the same transaction.
 */
export async function deleteTagged(sql: Sql, tag: string): Promise<number> {
  const plain = /^[^"\\<>&'\u0000-\u001f\u007f-\uffff]*/.exec(tag)![0]
  return sql.begin(async (tx) => {
    const deleted = await tx<{ source: string; first_seen: string }[]>`
      DELETE FROM events
      WHERE CASE WHEN strpos(json, ${plain}) > 0
        THEN EXISTS (SELECT 1 FROM json_array_elements_text(json::json -> 'tags') t WHERE t = ${tag})
        ELSE false END
      RETURNING source, first_seen::text`
    await countDeleted(tx, deleted, nowInstant())
    return deleted.length
  })
}
