/**
 * The answer of `GET /search/count` (our extension, docs/search.md "Counting and facets"): how
 * many events a query matches and, for each facet asked for, its most frequent values.
 */
import Type, { type Static } from 'typebox'
import { int, text } from './fields.js'

export const FacetValue = Type.Object(
  {
    value: text('Value', 'A value of the facet’s field (as text: a port, an ISO country code, an AS number, an address, …).'),
    count: int('Count', 'Matching events with this value (an event whose list field holds several values counts once under each).', 1),
  },
  { title: 'Facet value', description: 'One value of a facet and how many matching events have it.' },
)

export const SearchCount = Type.Object(
  {
    total: int('Total', 'Events of the scope that the query matches (every page of GET /search together).'),
    facets: Type.Optional(
      Type.Record(Type.String(), Type.Array(FacetValue), {
        title: 'Facets',
        description:
          'Present when facets were asked for: by facet name, in the order asked, the most frequent values first (ties by value), at most the number asked (default 10).',
      }),
    ),
  },
  { title: 'Search count', description: 'Answer of GET /search/count.' },
)

export type FacetValue = Static<typeof FacetValue>
export type SearchCount = Static<typeof SearchCount>
