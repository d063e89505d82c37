/**
 * GET /search/count in the OpenAPI document (our extension; answered by
 * src/service/http/search-count.ts; docs/search.md "Counting and facets"): how many events a
 * query matches, and the top values of facets, as IVRE's /top and Shodan's facets give them.
 */
import { errorAnswer, json, rateLimited, ref } from './openapi-parts.js'

const KEY_OPTIONAL = [{ apiKey: [] }, {}]
const error = (title: string, description: string) => ({ value: { title, description } })

/** The facet names (docs/search.md lists them; src/query/facets.ts is their table). */
const FACET_NAMES = 'port, plugin, severity (leaks), country, asn, ip, host, protocol, transport, tags, software, http.status, ssl.version, org, city, leak.type and leak.stage (leaks)'

/** The /search/count path. */
export function searchCountPaths() {
  return {
    '/search/count': {
      get: {
        operationId: 'searchCount',
        tags: ['extension', 'search'],
        summary: 'Count the events a query matches, with facets',
        description:
          'How many events of `scope` the query matches (every page of GET /search together), and for each facet asked for its most frequent ' +
          'values among them, most first, ties by value. Rate-limited and keyed as GET /search: one token a request; a plan whose ' +
          '`search_pages` is 0 may not count. A count too costly for one request (nothing narrows the query to an index, or a facet read ' +
          'from each event’s document over too many events, or more than 100 000 distinct values of one facet) is 422.',
        security: KEY_OPTIONAL,
        parameters: [
          { name: 'scope', in: 'query', required: true, description: 'Which events: `service` or `leak`.', schema: { type: 'string', enum: ['service', 'leak'] }, example: 'service' },
          { name: 'q', in: 'query', required: false, description: 'The query, as for GET /search. Absent, empty or `*`: every event of the scope.', schema: { type: 'string', maxLength: 4096 }, example: '+port:443' },
          {
            name: 'facet',
            in: 'query',
            required: false,
            description: `Facets, separated by commas (or the parameter repeated), each optionally \`:N\` for how many values (1 to 100, default 10), as Shodan's \`facets\` writes them; at most 8. Names: ${FACET_NAMES}.`,
            schema: { type: 'string' },
            examples: { two: { summary: 'Ports and the 5 first countries', value: 'port,country:5' } },
          },
        ],
        responses: {
          '200': json('The total, and `facets` when some were asked for.', ref('search-count'), { total: 412, facets: { port: [{ value: '443', count: 260 }, { value: '80', count: 98 }], country: [{ value: 'FR', count: 120 }] } }),
          '400': {
            description: 'No `scope` or another value, a query that does not parse or check (the position and the term), or a facet that is not known, not of the scope, asked twice, or with a number out of range.',
            content: {
              'application/json': {
                schema: ref('error'),
                examples: {
                  query: error('Bad Request', 'bad query at position 12 (`countri`): there is no field `countri`; did you mean `country`?'),
                  facet: error('Bad Request', 'The facet parameter: the facet `severity` is a field of leaks: count with scope leak.'),
                },
              },
            },
          },
          '401': errorAnswer('401', 'The api-key header holds a key the service does not know.', 'The api-key header holds no known key. Send a valid key, or no key (no api-key header, or an empty one) for the anonymous plan.'),
          '403': errorAnswer('403', 'The caller’s plan may not search (`search_pages` 0).', 'The registered plan may not search, nor count. Use a key of a plan that may.'),
          '406': errorAnswer('406', 'The accept header does not allow `application/json`.', 'The answer is application/json, which the accept header ("image/png") does not allow.'),
          '422': errorAnswer(
            '422',
            'The query is valid but the count is too costly for one request: add a selective term, or leave out a facet read from each document.',
            'The count is too costly to answer in one request: the count read 100000 events: add a selective term (ip, host, plugin, severity, port, country, l9fp, time).',
          ),
          '429': rateLimited(),
        },
      },
    },
  }
}
