/**
 * The configuration member `lookup_cache_bytes`: how many bytes of lookup answers a PostgreSQL
 * store keeps in each service process, invalidated by the database (store/postgres/lookups.ts;
 * docs/service.md, "Kept lookup answers on PostgreSQL"). 0 turns it off. The memory store has
 * its answers in memory anyway and ignores it.
 */

import { type Problem, readInteger } from '../config-reading.js'

/**
 * Default: 32 MiB per process, some 10 000 host answers of a few events each: the addresses
 * asked for again and again fit, and a process with `serve --workers 2` holds twice that.
 */
export const DEFAULT_LOOKUP_CACHE_BYTES = 32 * 1024 * 1024

/** Reads `lookup_cache_bytes`; undefined when absent or wrong (reported). */
export function readLookupCacheBytes(doc: Record<string, unknown>, problem: Problem): number | undefined {
  return readInteger(doc, 'lookup_cache_bytes', '', 0, Number.MAX_SAFE_INTEGER, 'an integer of bytes, 0 or more; 0 = keep no answers', problem)
}
