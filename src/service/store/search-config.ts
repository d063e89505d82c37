/**
 * The configuration members of GET /search (docs/service.md): `search_page_size` (events in one
 * page) and each plan's `search_pages` (how many pages a caller may read). Read by config.ts.
 */
type Problem = (pointer: string, message: string) => void

/** Events in one page of GET /search: 20, what LeakIX's Python client assumes. */
export const DEFAULT_SEARCH_PAGE_SIZE = 20
/** Largest `search_page_size` accepted. */
export const MAX_SEARCH_PAGE_SIZE = 1_000

const show = (value: unknown) => JSON.stringify(value)?.slice(0, 40) ?? 'nothing'

/** Reads `search_page_size`; undefined when absent or wrong (reported). */
export function readSearchPageSize(doc: Record<string, unknown>, problem: Problem): number | undefined {
  const size = doc.search_page_size
  if (size === undefined) return undefined
  if (Number.isSafeInteger(size) && (size as number) >= 1 && (size as number) <= MAX_SEARCH_PAGE_SIZE) return size as number
  problem('/search_page_size', `must be an integer from 1 to ${MAX_SEARCH_PAGE_SIZE}: events in one page of /search (got ${show(size)})`)
  return undefined
}

/** Sets `plan.searchPages` from a plan's `search_pages` member at `at`, when given (an integer ≥ 0, or null for no cap). */
export function readSearchPages(spec: Record<string, unknown>, plan: { searchPages: number | null }, at: string, problem: Problem): void {
  const v = spec.search_pages
  if (v === undefined) return
  if (v === null) plan.searchPages = null
  else if (Number.isSafeInteger(v) && (v as number) >= 0) plan.searchPages = v as number
  else problem(`${at}/search_pages`, `must be an integer ≥ 0 (the pages of /search a key of this plan may read), or null for no cap (got ${show(v)})`)
}
