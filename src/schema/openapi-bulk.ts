/**
 * The bulk export in the OpenAPI document (docs/specification.md, answered by
 * src/service/http/bulk.ts): two GETs whose 200 answer is JSON Lines (`application/x-ndjson`),
 * streamed. OpenAPI 3.1 describes a media type by one schema for the whole body; for JSON Lines
 * the schema given is that of each line (`itemSchema` in OpenAPI 3.2's terms, not yet in 3.1),
 * and the example is one line.
 */
import { exampleAggregation, exampleServiceEvent } from './openapi-examples.js'
import { errorAnswer, rateLimited, ref } from './openapi-parts.js'

const KEY_OPTIONAL = [{ apiKey: [] }, {}]
export const NDJSON = 'application/x-ndjson'

const q = (scope: 'leak' | 'service') => ({
  name: 'q',
  in: 'query',
  required: false,
  description: `A query (docs/search.md) over ${scope} events; missing or empty is \`*\`, every ${scope} event.`,
  schema: { type: 'string', examples: [scope === 'leak' ? '+plugin:ElasticSearchOpenPlugin +country:France' : '+port:443 -country:Germany'] },
})

const errors = {
  '400': errorAnswer('400', 'The query does not parse, names an unknown field or one of the other scope, or holds a value its field cannot take.', 'bad query at position 11 (`colour`): there is no field `colour` (docs/search.md lists the fields)'),
  '401': errorAnswer('401', 'The api-key header holds a key the service does not know.', 'The api-key header holds no known key. Send a valid key, or no key (no api-key header, or an empty one) for the anonymous plan.'),
  '403': errorAnswer('403', 'The caller’s plan may not use the bulk export (its `bulk` member is false; pro only by default).', "The bulk export is for pro keys; this caller's plan is registered."),
  '406': errorAnswer('406', 'The accept header allows neither `application/x-ndjson` nor `application/json`.', 'The answer is application/x-ndjson (JSON Lines), which the accept header ("image/png") does not allow.'),
  '422': errorAnswer(
    '422',
    'The query is valid but too costly (docs/service.md, "Limits"): its cost per event is above the plan’s `max_query_cost`, or the export did the plan’s `export_work` before its first line (after it, the answer is cut: an incomplete chunked stream).',
    'The query costs 9625.6 work units per event it reads; the pro plan allows 5000 (docs/service.md, "Limits"). Its costliest term, at position 1 (`http.header:~"([^a]{0,50}[^b]{0,50}){10}z"`), costs 9625.6: use a smaller pattern, fewer words or fewer fields.',
  ),
  '429': rateLimited(false, ' Also when the key already runs its plan’s `bulk_exports`, or the service `max_bulk_exports` (then `retry-after: 1` and `x-limited-for: 1s`).'),
}

const operation = (scope: 'leak' | 'service') => ({
  get: {
    operationId: scope === 'leak' ? 'bulkSearch' : 'bulkServices',
    tags: ['extension', 'bulk'],
    summary: scope === 'leak' ? 'Every matching leak, one aggregation per resource per line' : 'Every matching service event, one per line',
    description:
      (scope === 'leak'
        ? 'The leak events matching `q`, grouped by resource (an address, or a host name when the events carry none): one aggregation document per line, ' +
          'holding that resource’s matching events. '
        : 'The service events matching `q`, each as its stored canonical bytes, one per line, newest first. ') +
      'JSON Lines, streamed with backpressure (the service reads the store only as fast as the client reads); 204 when nothing matches. ' +
      'For plans whose `bulk` member is true (pro by default); one token of the rate limit per export. Not paged: the whole answer is one stream.',
    security: KEY_OPTIONAL,
    parameters: [q(scope)],
    responses: {
      '200': {
        description: `JSON Lines: one ${scope === 'leak' ? 'aggregation' : 'event document'} per line (the schema is each line's; the example one line).`,
        content: { [NDJSON]: { schema: ref(scope === 'leak' ? 'aggregation' : 'event'), example: scope === 'leak' ? exampleAggregation() : exampleServiceEvent() } },
      },
      '204': { description: 'Nothing matches: no body.' },
      ...errors,
    },
  },
})

/** The paths of the bulk export. */
export function bulkPaths() {
  return { '/bulk/search': operation('leak'), '/bulk/service': operation('service') }
}
