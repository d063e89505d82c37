/**
 * What both stores' counting shares (GET /search/count, docs/search.md "Counting and facets"):
 * the request (the facets asked for and how many values each), the answer, and the bound on
 * distinct values a facet may hold while it is counted.
 */
import type { FacetRequest } from '../../query/facets.js'

/** What to count besides the total. */
export interface CountRequest {
  facets: readonly FacetRequest[]
  /**
   * Most distinct values one facet may meet among the matches (default
   * DEFAULT_FACET_DISTINCT_LIMIT): past it the count ends with SearchLimitError, so a facet such
   * as `ip` over millions of events holds no table of millions of values.
   */
  distinctLimit?: number
}

/** One value of a facet and the number of matching events that have it. */
export interface FacetCount {
  value: string
  count: number
}

/** The answer: how many events match, and per facet asked for (in the order asked) its top values. */
export interface CountResult {
  total: number
  facets: { name: string; values: FacetCount[] }[]
}

/** Default bound on the distinct values of one facet. */
export const DEFAULT_FACET_DISTINCT_LIMIT = 100_000

/** The SearchLimitError message of a facet with too many distinct values. */
export const tooManyValues = (facet: string, limit: number) =>
  `the facet ${facet} has more than ${limit} distinct values among the matches: narrow the query or leave that facet out`
