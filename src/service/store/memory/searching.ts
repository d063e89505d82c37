/**
 * The memory store's searches, counts and bulk reads (search.ts, count.ts and matching.ts do the
 * work) with the bounds the store gives them: its scan limit for a page or a count, and where
 * events are evaluated (its Evaluator, once the service hands it one: off the lookups' thread).
 */
import type { Query } from '../../../query/index.js'
import type { CountRequest, CountResult } from '../count.js'
import type { Evaluator } from '../evaluator.js'
import { DEFAULT_SCAN_LIMIT, type SearchAllOptions, type SearchOptions, type SearchPage } from '../search.js'
import type { BatchedIterable, SeenEvent } from '../types.js'
import { countMatches } from './count.js'
import { searchAll, searchByResource, searchPage, type SearchView } from './search.js'

export interface MemoryStoreOptions {
  /** Events a search may evaluate for one page before it gives up (SearchLimitError); default DEFAULT_SCAN_LIMIT. */
  scanLimit?: number
  /** Where searches evaluate events (default: this thread, in slices; the service gives a worker thread: useEvaluator). */
  evaluator?: Evaluator
}

export class MemorySearch {
  private readonly scanLimit: number
  /** Where events are evaluated from now on (Store.useEvaluator). */
  evaluator: Evaluator | undefined

  constructor(
    private readonly view: SearchView,
    options: MemoryStoreOptions,
  ) {
    this.scanLimit = options.scanLimit ?? DEFAULT_SCAN_LIMIT
    this.evaluator = options.evaluator
  }

  /** One page, newest first (at most `scanLimit` evaluated); at once when no event needs evaluating. */
  page(query: Query, page: SearchPage, options: SearchOptions = {}): Buffer[] | Promise<Buffer[]> {
    return searchPage(this.view, query, page, { ...options, scanLimit: this.scanLimit, evaluator: this.evaluator })
  }

  /** The total and facets (search's bounded path; at most `scanLimit` evaluated or read). */
  count(query: Query, request: CountRequest, options: SearchOptions = {}): Promise<CountResult> {
    return countMatches(this.view, query, request, { ...options, scanLimit: this.scanLimit, evaluator: this.evaluator })
  }

  /** Every match, newest first, read in batches (bulk export). */
  all(query: Query, options: SearchAllOptions = {}): AsyncIterable<Buffer> {
    return searchAll(this.view, query, { ...options, evaluator: this.evaluator })
  }

  /** Every match with its seen times, one resource's events together (bulk export). */
  byResource(query: Query, options: SearchAllOptions = {}): BatchedIterable<SeenEvent> {
    return searchByResource(this.view, query, options.batch ?? 1000, { ...options, evaluator: this.evaluator })
  }
}
