/**
 * The OpenAPI 3.1 description of the lookup API, our extensions (ingest, watched resources, hooks,
 * deliveries, the web view's pages) and the alert webhook, built from the same TypeBox
 * definitions as the schema documents (3.1 uses JSON Schema 2020-12, so they are embedded as
 * they are, each part once under `components/schemas`, referenced everywhere else).
 */
import { ErrorBody, LookupResult, SubdomainEntry, Subdomains } from './api.js'
import { schemaDocument } from './documents.js'
import { Event } from './event.js'
import {
  CreatedHook,
  Deliveries,
  Delivery,
  DeliveryStatus,
  Hook,
  HookEventType,
  HookRequest,
  Hooks,
  HookState,
  Resource,
  ResourceRequest,
  Resources,
  ResourceType,
  RetryResult,
  Severity,
} from './hooks.js'
import { DeletedEvents, IngestAnswer, IngestIssue, IngestRejected } from './ingest.js'
import type { JsonSchema } from './json-schema.js'
import { EXAMPLES, exampleLeakEvent } from './openapi-examples.js'
import { hookPaths } from './openapi-hooks.js'
import { pluginAndLivePaths } from './openapi-plugins.js'
import { bulkPaths } from './openapi-bulk.js'
import { Aggregation } from './aggregation.js'
import { searchPaths } from './openapi-search.js'
import { searchCountPaths } from './openapi-search-count.js'
import { Plugin, Plugins, PluginStats } from './plugins.js'
import { FacetValue, SearchCount } from './search-count.js'
import { addComponent, errorAnswer, HEADERS, json, pageAlternative, patterned, rateLimited, ref, toComponents } from './openapi-parts.js'
import { SCHEMA_VERSION } from './version.js'

/** Lookups take a key or none: the empty security requirement makes the key optional. */
const KEY_OPTIONAL = [{ apiKey: [] }, {}]

const accept = {
  name: 'accept',
  in: 'header',
  required: false,
  description:
    'Media types the client takes. The answer is `application/json` unless the header prefers `text/html` over it ' +
    '(a browser), which gets the web view’s page (host and domain lookups only). A header that allows neither is 406.',
  schema: { type: 'string', examples: ['application/json'] },
}

const lookupErrors = (param: 'ip' | 'domain', html: boolean) => ({
  '400': errorAnswer(
    '400',
    param === 'ip' ? 'The path parameter is not an IPv4 or IPv6 address (or its percent-encoding is malformed).' : 'The path parameter is not a domain name (or its percent-encoding is malformed).',
    param === 'ip' ? '"300.1.1.1" is not an IPv4 or IPv6 address.' : '"exa mple.com" is not a domain name (labels of letters, digits, \'-\' and \'_\', at most 253 characters).',
    html,
  ),
  '401': errorAnswer(
    '401',
    'The api-key header holds a key the service does not know. Without the header (or with an empty one) the caller is served on the anonymous plan.',
    'The api-key header holds no known key. Send a valid key, or no key (no api-key header, or an empty one) for the anonymous plan.',
  ),
  '406': errorAnswer('406', 'The accept header allows neither `application/json` nor (for host and domain) `text/html`.', 'The answer is application/json, which the accept header ("image/png") does not allow.'),
  '429': rateLimited(html),
})

const pageQuery = [
  { name: 'sort', in: 'query', required: false, description: 'Web view only: the column the page is sorted by.', schema: { type: 'string' } },
  // No enum: a JSON answer ignores both (only the web view's page reads them, and refuses a bad `dir` with 400).
  { name: 'dir', in: 'query', required: false, description: 'Web view only: sort direction, `asc` or `desc` (the page answers 400 to anything else; a JSON answer ignores it).', schema: { type: 'string' } },
]

const lookup = (operationId: string, summary: string, description: string, param: 'ip' | 'domain', paramText: string) => ({
  get: {
    operationId,
    tags: ['lookups'],
    summary,
    description: `${description} A browser (an accept header preferring \`text/html\`) gets the web view's page instead of JSON.`,
    security: KEY_OPTIONAL,
    parameters: [{ name: param, in: 'path', required: true, description: paramText, schema: { type: 'string' } }, accept, ...pageQuery],
    responses: {
      '200': {
        description: '`Services` and `Leaks`, each an array of event documents or null when nothing is known (an unknown host or domain is not an error).',
        content: {
          'application/json': {
            schema: ref('lookup-result'),
            examples: {
              found: { summary: 'Events found', value: EXAMPLES.lookup() },
              unknown: { summary: 'Nothing known', value: EXAMPLES.lookupEmpty() },
            },
          },
          ...pageAlternative,
        },
      },
      ...lookupErrors(param, true),
    },
  },
})

/** Every component schema: the event and its parts, the API's bodies, our extensions' bodies. */
function components(): JsonSchema {
  const event = schemaDocument('event')
  const schemas: JsonSchema = {}
  for (const [name, def] of Object.entries(event.$defs as JsonSchema)) schemas[name] = toComponents(def)
  schemas.event = toComponents(event)
  addComponent(schemas, 'lookup-result', LookupResult, { event: Event })
  addComponent(schemas, 'subdomains', Subdomains, { 'subdomain-entry': SubdomainEntry })
  addComponent(schemas, 'error', ErrorBody)
  addComponent(schemas, 'ingest-answer', IngestAnswer, { 'ingest-rejected': IngestRejected, 'ingest-problem': IngestIssue })
  const hookParts = { 'resource-type': ResourceType, severity: Severity, 'hook-event-type': HookEventType, 'delivery-status': DeliveryStatus, 'hook-state': HookState }
  addComponent(schemas, 'resource-request', ResourceRequest, hookParts)
  addComponent(schemas, 'resources', Resources, { resource: Resource, ...hookParts })
  addComponent(schemas, 'hook-request', HookRequest, hookParts)
  addComponent(schemas, 'hooks', Hooks, { hook: Hook, ...hookParts })
  addComponent(schemas, 'created-hook', CreatedHook, hookParts)
  addComponent(schemas, 'deliveries', Deliveries, { delivery: Delivery, ...hookParts })
  addComponent(schemas, 'retry-result', RetryResult)
  addComponent(schemas, 'deleted-events', DeletedEvents)
  addComponent(schemas, 'plugins', Plugins, { 'plugin-stats': PluginStats })
  addComponent(schemas, 'plugin', Plugin)
  addComponent(schemas, 'aggregation', Aggregation, { event: Event })
  addComponent(schemas, 'search-count', SearchCount, { 'facet-value': FacetValue })
  return schemas
}

const ingest = {
  post: {
    operationId: 'ingestEvents',
    tags: ['extension', 'ingest'],
    summary: 'Add events to the store',
    description:
      'Our extension, for tests and demos: JSON Lines (one event per line) or a JSON array of events. Each record is validated; ' +
      'refused ones are listed by line, the rest are stored. New events go to the matching hooks.',
    security: [{ adminToken: [] }],
    requestBody: {
      required: true,
      content: {
        'application/x-ndjson': { schema: { type: 'string', description: 'JSON Lines: one event document per line.' } },
        'application/json': {
          schema: { anyOf: [ref('event'), { type: 'array', items: ref('event') }] },
          example: [exampleLeakEvent()],
        },
      },
    },
    responses: {
      '200': json('What was stored, what was already there, and what was refused with why.', ref('ingest-answer'), EXAMPLES.ingest()),
      '401': errorAnswer('401', 'No `authorization: Bearer TOKEN` header, or not the admin token.', "POST /admin/events needs the admin token as 'authorization: Bearer TOKEN'."),
      '403': errorAnswer('403', 'Ingest is disabled: the service configuration has no admin token.', 'Ingest is disabled: the service configuration has no admin_token.'),
      '413': {
        ...errorAnswer('413', 'The body is larger than the configured limit (`max_body_bytes`); the connection is closed after the answer.', 'The body is larger than 16777216 bytes; send the events in smaller batches.'),
      },
    },
  },
  delete: {
    operationId: 'deleteTaggedEvents',
    tags: ['extension', 'ingest'],
    summary: 'Delete the events carrying a tag',
    description:
      'Our extension: deletes every stored event whose `tags` hold the tag exactly. `l9kit conform` tags what it ingests with ' +
      '`l9kit-conform:RUN` and removes it with this route when its run ends. The store is scanned: use it for such clean-ups, not as a query.',
    security: [{ adminToken: [] }],
    parameters: [{ name: 'tag', in: 'query', required: true, description: 'The tag, exactly as in the events’ `tags`.', schema: { type: 'string', minLength: 1 }, example: 'l9kit-conform:c1a2b3' }],
    responses: {
      '200': json('How many events were deleted (0 when none carried the tag).', ref('deleted-events'), { deleted: 16 }),
      '400': errorAnswer('400', 'No `tag` parameter, an empty one, or more than one.', 'DELETE /admin/events needs one non-empty tag parameter (?tag=…): the events carrying that tag are deleted.'),
      '401': errorAnswer('401', 'No `authorization: Bearer TOKEN` header, or not the admin token.', "DELETE /admin/events needs the admin token as 'authorization: Bearer TOKEN'."),
      '403': errorAnswer('403', 'The service configuration has no admin token.', 'Deleting events is disabled: the service configuration has no admin_token.'),
    },
  },
}

const web = {
  '/': {
    get: {
      operationId: 'indexPage',
      tags: ['extension', 'web'],
      summary: 'Web view: the start page',
      description: 'For a browser (an accept header preferring `text/html`): the search box, the latest findings, the most-seen plugins and the leaks by severity. Anything else gets 404.',
      security: [{}],
      parameters: [accept],
      responses: {
        '200': { description: 'The page.', content: pageAlternative },
        '404': errorAnswer('404', 'The accept header does not prefer `text/html`: there is no JSON resource here.', 'No such route; routes are GET /host/:ip, GET /domain/:domain, GET /api/subdomains/:domain, …'),
        '429': { description: 'The pages’ own rate budget for this client address is spent (reason phrase `Rate-limited`).', 'x-reason-phrase': 'Rate-limited', headers: rateLimited().headers, content: pageAlternative },
      },
    },
  },
}

const webhookHeaders = {
  'webhook-id': { description: 'The delivery id, the same for every attempt of one delivery (`msg_…`): receivers use it to drop duplicates.', required: true, schema: { type: 'string' } },
  'webhook-timestamp': { description: 'Unix time of the attempt, in seconds.', required: true, schema: patterned('^[0-9]+$') },
  'webhook-signature': {
    description:
      'Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`, keyed with the base64-decoded part of the hook secret. ' +
      'Several signatures may be given, separated by spaces; one that matches is enough.',
    required: true,
    schema: patterned('^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$'),
  },
  'user-agent': { description: '`l9kit/<version>` from the reference service.', required: false, schema: { type: 'string' } },
}

/** The whole document; deterministic, so the committed schema/openapi.json can be compared with it. */
export function openApiDocument(): JsonSchema {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Network exposure lookup API',
      version: SCHEMA_VERSION,
      summary: 'Lookups of events per host and domain, subdomains, search, plugins, the live stream, the bulk export, and alert hooks.',
      description:
        'Read-only lookups of the events known for a host or domain and the subdomains of a domain, as the specification describes them, ' +
        'plus the extensions of the l9kit reference service (tagged `extension`): ingest, watched resources, hooks and their deliveries, ' +
        "and the web view's pages. Error bodies and 400/401/403/404/406/409/413 are the reference service's choices where the " +
        'specification says nothing. A method a path does not list is answered 405 with an `allow` header naming the methods it ' +
        'takes (and a JSON error body); a path not listed here is 404. The version is the schema version (schema/VERSION).',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: 'http://127.0.0.1:8080', description: 'l9kit reference service (`l9kit serve`)' }],
    security: KEY_OPTIONAL,
    tags: [
      { name: 'lookups', description: 'The lookup API of the specification.' },
      { name: 'extension', description: "The reference service's additions to the specification." },
      { name: 'ingest', description: 'Adding events (admin token).' },
      { name: 'resources', description: 'Watched resources: what alerts concern.' },
      { name: 'hooks', description: 'Alert hooks (pro keys).' },
      { name: 'deliveries', description: 'Deliveries of alert hooks: listing and re-sending.' },
      { name: 'web', description: 'Pages for browsers.' },
      { name: 'search', description: 'Searching events with the query language.' },
      { name: 'plugins', description: 'The plugins (event sources) seen, with event counts.' },
      { name: 'live', description: 'The live stream of new events (WebSocket).' },
      { name: 'bulk', description: 'The bulk export: every match of a query, streamed as JSON Lines.' },
    ],
    paths: {
      '/host/{ip}': lookup('lookupHost', 'Events of an IP address', 'Services and leaks seen on one IP address, any spelling.', 'ip', 'An IPv4 or IPv6 address.'),
      '/domain/{domain}': lookup('lookupDomain', 'Events of a domain and its subdomains', 'Events whose host is the domain or ends with `.` and the domain.', 'domain', 'A domain name.'),
      '/api/subdomains/{domain}': {
        get: {
          operationId: 'lookupSubdomains',
          tags: ['lookups'],
          summary: 'Subdomains known for a domain',
          description: 'Registered and pro keys receive more entries than anonymous callers (a cap per plan). No order is promised.',
          security: KEY_OPTIONAL,
          parameters: [{ name: 'domain', in: 'path', required: true, description: 'A domain name.', schema: { type: 'string' } }, accept],
          responses: {
            '200': json('Subdomain entries; an empty array when none is known.', ref('subdomains'), EXAMPLES.subdomains()),
            ...lookupErrors('domain', false),
          },
        },
      },
      '/admin/events': ingest,
      ...searchPaths(),
      ...searchCountPaths(),
      ...pluginAndLivePaths(),
      ...bulkPaths(),
      ...hookPaths(),
      ...web,
    },
    webhooks: {
      alert: {
        post: {
          operationId: 'alert',
          tags: ['extension', 'hooks'],
          summary: 'Alert hook delivery',
          description:
            'One POST per new matching event to the URL of a hook: the event covers a watched resource of the hook’s owner, its type is ' +
            'in `event_types`, and a leak meets `min_severity`. The body is the event’s stored canonical bytes. Signed the Standard ' +
            'Webhooks way. Any 2xx is delivered; anything else, a timeout or a refused connection is retried with backoff, then parked ' +
            'as failed. At least once, in order per hook; redirects are not followed.',
          security: [{}],
          parameters: Object.entries(webhookHeaders).map(([name, header]) => ({ name, in: 'header', ...header })),
          requestBody: { required: true, content: { 'application/json': { schema: ref('event'), example: exampleLeakEvent() } } },
          responses: {
            '2XX': { description: 'Delivered.' },
            default: { description: 'Not delivered: retried with backoff, then parked as failed (re-sendable).' },
          },
        },
      },
    },
    components: {
      schemas: components(),
      headers: HEADERS,
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'api-key', description: 'A key of the service. Optional for lookups (anonymous plan without it); required for resources, pro plan for hooks.' },
        adminToken: { type: 'http', scheme: 'bearer', description: 'The admin token of the service configuration (`admin_token`), for ingest.' },
      },
    },
  }
}

