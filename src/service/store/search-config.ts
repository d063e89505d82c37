/**
 * The configuration members of GET /search (docs/service.md): `search_page_size` (events in one
 * page) and each plan's `search_pages` (how many pages a caller may read). Read by config.ts.
 */
import { type Problem, readInteger, show } from '../config-reading.js'

/** Events in one page of GET /search: 20, what LeakIX's Python client assumes. */
export const DEFAULT_SEARCH_PAGE_SIZE = 20
/** Largest `search_page_size` accepted. */
export const MAX_SEARCH_PAGE_SIZE = 1_000

/** Reads `search_page_size`; undefined when absent or wrong (reported). */
export function readSearchPageSize(doc: Record<string, unknown>, problem: Problem): number | undefined {
  return readInteger(doc, 'search_page_size', '', 1, MAX_SEARCH_PAGE_SIZE, `an integer from 1 to ${MAX_SEARCH_PAGE_SIZE}: events in one page of /search`, problem)
}

/** Sets `plan.searchPages` from a plan's `search_pages` member at `at`, when given (an integer ≥ 0, or null for no cap). */
export function readSearchPages(spec: Record<string, unknown>, plan: { searchPages: number | null }, at: string, problem: Problem): void {
  const v = spec.search_pages
  if (v === undefined) return
  if (v === null) plan.searchPages = null
  else if (Number.isSafeInteger(v) && (v as number) >= 0) plan.searchPages = v as number
  else problem(`${at}/search_pages`, `must be an integer ≥ 0 (the pages of /search a key of this plan may read), or null for no cap (got ${show(v)})`)
}
