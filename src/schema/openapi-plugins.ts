/**
 * The plugin routes and the live stream in the OpenAPI document (docs/specification.md, answered by
 * src/service/http/plugins.ts and live.ts). OpenAPI 3.1 has no WebSocket operations: a stream is
 * described as the GET that asks for the upgrade, its 101 answer says what the messages are
 * (`x-message-schema` points at the event document), and its refusals are ordinary answers.
 */
import { EXAMPLES, exampleLeakEvent } from './openapi-examples.js'
import { errorAnswer, json, patterned, rateLimited, ref } from './openapi-parts.js'
import { PLUGIN_NOT_FOUND } from './plugin-not-found.js'

const KEY_OPTIONAL = [{ apiKey: [] }, {}]

const unauthorized = errorAnswer(
  '401',
  'The api-key header holds a key the service does not know. Without the header (or with an empty one) the caller is served on the anonymous plan.',
  'The api-key header holds no known key. Send a valid key, or no key (no api-key header, or an empty one) for the anonymous plan.',
)

const pluginErrors = {
  '401': unauthorized,
  '406': errorAnswer('406', 'The accept header does not allow `application/json`.', 'The answer is application/json, which the accept header ("image/png") does not allow.'),
  '429': rateLimited(),
}

const plugins = {
  '/api/plugins': {
    get: {
      operationId: 'listPlugins',
      tags: ['extension', 'plugins'],
      summary: 'Every plugin, with its event counts',
      description:
        'Every `event_source` of a stored event, by name in byte order, with its description (from the service configuration, or a default sentence) ' +
        'and its distinct events counted by their `time`: the last hour to the minute, the last 24 hours and 7 days to the hour (docs/service.md). ' +
        'Rate limited like the lookups.',
      security: KEY_OPTIONAL,
      responses: { '200': json('The plugins; an empty array when no event is stored.', ref('plugins'), EXAMPLES.plugins()), ...pluginErrors },
    },
  },
  '/api/plugins/{name}': {
    get: {
      operationId: 'getPlugin',
      tags: ['extension', 'plugins'],
      summary: 'One plugin: name and description',
      description: 'The plugin’s name and description only (the counts are in the list), as LeakIX’s clients read it.',
      security: KEY_OPTIONAL,
      parameters: [{ name: 'name', in: 'path', required: true, description: 'A plugin name (an `event_source`), percent-encoded.', schema: patterned('^[^/]+$') }],
      responses: {
        '200': json('The plugin.', ref('plugin'), EXAMPLES.plugin()),
        '400': errorAnswer('400', 'The name’s percent-encoding is malformed.', 'The path parameter "%E0%A4%A" has malformed percent-encoding.'),
        '404': {
          description: 'No stored event has this source. The body is a JSON string, not an error object: what LeakIX’s service sends.',
          content: { 'application/json': { schema: { type: 'string', const: PLUGIN_NOT_FOUND }, example: PLUGIN_NOT_FOUND } },
        },
        ...pluginErrors,
      },
    },
  },
}

/** The headers of a WebSocket handshake (RFC 6455, 4.1) and the one LeakIX's Go client adds. */
const handshake = [
  { name: 'upgrade', in: 'header', required: true, description: '`websocket`.', schema: { type: 'string', const: 'websocket' } },
  { name: 'sec-websocket-key', in: 'header', required: true, description: 'The handshake nonce (base64 of 16 bytes).', schema: { type: 'string' } },
  { name: 'sec-websocket-version', in: 'header', required: true, description: '`13`.', schema: { type: 'string', const: '13' } },
  {
    name: 'origin',
    in: 'header',
    required: false,
    description: 'Any value is accepted (LeakIX’s Go client sends `HOST:PORT`): the key is a header a browser’s WebSocket cannot set.',
    schema: { type: 'string' },
  },
  { name: 'q', in: 'query', required: false, description: 'Filter: a query (docs/search.md) over the stream’s scope; only new events it matches are sent. Missing or `*`: everything.', schema: { type: 'string', examples: ['+plugin:GitConfigHttpPlugin -port:8080'] } },
]

const stream = (scope: 'service' | 'leak') => ({
  get: {
    operationId: scope === 'leak' ? 'streamLeaks' : 'streamServices',
    tags: ['extension', 'live'],
    summary: `Live stream of new ${scope} events (WebSocket)`,
    description:
      `A WebSocket (RFC 6455): after the 101, one text message per event of type \`${scope}\` stored as new from then on (by any process of a ` +
      'PostgreSQL store), each the event document’s canonical bytes; the client sends nothing. For plans whose `live` member is true ' +
      '(pro by default); one token of the rate limit per connection. A subscriber with more unread bytes than `live_buffer_bytes` ' +
      'is closed with code 1013; the service stopping closes with 1001. OpenAPI 3.1 cannot describe the messages: `x-message-schema` names their schema.',
    security: KEY_OPTIONAL,
    parameters: handshake,
    responses: {
      '101': {
        description: 'Switching to the WebSocket protocol; then one text message per new event (`x-message-schema`).',
        'x-message-schema': ref('event'),
        'x-message-example': exampleLeakEvent(),
        headers: {
          upgrade: { description: '`websocket`.', required: true, schema: { type: 'string', const: 'websocket' } },
          'sec-websocket-accept': { description: 'The handshake answer (RFC 6455, 4.2.2).', required: true, schema: { type: 'string' } },
        },
      },
      '400': errorAnswer('400', 'A `q` that does not parse or names an unknown field (or one of the other scope), or a malformed handshake.', 'bad query at position 11 (`colour`): there is no field `colour` (docs/search.md lists the fields)'),
      '401': unauthorized,
      '403': errorAnswer('403', 'The caller’s plan may not use the live stream (its `live` member is false).', "The live stream is for pro keys; this caller's plan is registered."),
      '422': errorAnswer(
        '422',
        'The `q` filter is valid but its cost per event is above the plan’s `max_query_cost` (docs/service.md, "Limits"). A subscriber whose filter later cannot keep up with new events is closed with 1013 and the reason.',
        'The query costs 9625.6 work units per event it reads; the pro plan allows 5000 (docs/service.md, "Limits"). Its costliest term, at position 1 (`http.header:~"([^a]{0,50}[^b]{0,50}){10}z"`), costs 9625.6: use a smaller pattern, fewer words or fewer fields.',
      ),
      '426': errorAnswer('426', 'A GET without `Upgrade: websocket`.', 'This is a WebSocket endpoint: connect with `Upgrade: websocket` (one event document per text message).'),
      '429': rateLimited(false, ' Also when the key already holds its plan’s `live_connections`, or the service `max_live_connections` (then `retry-after: 1` and `x-limited-for: 1s`).'),
      '503': errorAnswer('503', 'The store cannot feed the stream now (PostgreSQL: LISTEN failed).', 'The live stream cannot follow the store now: connection refused'),
    },
  },
})

/** The paths of the plugin routes and the two streams. */
export function pluginAndLivePaths() {
  return { ...plugins, '/ws/service': stream('service'), '/ws/leak': stream('leak') }
}
