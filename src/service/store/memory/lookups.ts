/**
 * The memory store's lookup answers: the events of some id lists split into services and leaks,
 * as bytes (the API's answer) or with their first and last seen times (the web view's).
 */
import { formatTime, type Instant } from '../../../time/index.js'
import { forEachId, type Ids } from './columns.js'
import type { Lookup, SeenEvent, SeenLookup } from '../types.js'

/** What an answer reads of the store. */
export interface EventReader {
  /** 1 for a leak event, by id. */
  leak(): Uint8Array
  bytes(id: number): Buffer
  first(id: number): Instant
  last(id: number): Instant
}

/** Visits the id lists that make an answer. */
export type IdLists = (each: (ids: Ids | undefined) => void) => void

export function lookupOf(reader: EventReader, lists: IdLists): Lookup {
  const into: { services: Buffer[]; leaks: Buffer[] } = { services: [], leaks: [] }
  const leak = reader.leak()
  lists((ids) => forEachId(ids, (id) => (leak[id] ? into.leaks : into.services).push(reader.bytes(id))))
  return into
}

export function seenLookupOf(reader: EventReader, lists: IdLists): SeenLookup {
  const into: { services: SeenEvent[]; leaks: SeenEvent[] } = { services: [], leaks: [] }
  const leak = reader.leak()
  lists((ids) =>
    forEachId(ids, (id) =>
      (leak[id] ? into.leaks : into.services).push({ json: reader.bytes(id), firstSeen: formatTime(reader.first(id)), lastSeen: formatTime(reader.last(id)) }),
    ),
  )
  return into
}
