/**
 * GET /search in the OpenAPI document (docs/specification.md, answered by
 * src/service/http/search.ts; docs/search.md): one page of events a query matches, and, for a
 * browser, the web view's search form target.
 */
import { exampleLeakEvent, exampleServiceEvent } from './openapi-examples.js'
import { errorAnswer, HTML, patterned, rateLimited, ref } from './openapi-parts.js'

const KEY_OPTIONAL = [{ apiKey: [] }, {}]

const error = (title: string, description: string) => ({ value: { title, description } })

const parameters = [
  {
    name: 'scope',
    in: 'query',
    required: true,
    description: 'Which events: `service` or `leak`. Leak-only fields (`creation_date`, `age`, `leak.*`, …) are refused with `service`.',
    schema: { type: 'string', enum: ['service', 'leak'] },
    example: 'leak',
  },
  {
    name: 'q',
    in: 'query',
    required: false,
    description:
      'The query (docs/search.md): `+` required, `-` excluded, optional terms, `( … )` groups, `"phrases"`, `field:value`, ranges `:>` `:<`, `:=` exact, `:~"regex"`. ' +
      'Absent, empty or `*`: every event of the scope.',
    schema: { type: 'string', maxLength: 4096 },
    examples: {
      excluded: { summary: 'HTTPS outside Germany', value: '+port:443 -country:Germany' },
      since: { summary: 'Seen after a day', value: '+time:>"2026-11-24"' },
      everything: { summary: 'Every event', value: '*' },
      groups: { summary: 'Either of two plugin and severity pairs', value: '(+plugin:"GitConfigHttpPlugin" +severity:"critical") (+plugin:"DotDsStoreOpenPlugin" +severity:"high")' },
    },
  },
  {
    name: 'page',
    in: 'query',
    required: false,
    description: 'The page, from 0. Past the last page the answer is an empty array; beyond the plan’s `search_pages` it is 403.',
    schema: { type: 'integer', minimum: 0, maximum: 1_000_000, default: 0 },
    example: 0,
  },
  {
    name: 'accept',
    in: 'header',
    required: false,
    description: 'The answer is `application/json`; a browser (preferring `text/html`) gets the web view instead: a results page for a query (200), or, for an address, `ip:port`, a URL or a domain name, a redirect to its page (303). A header that allows neither is 406.',
    schema: { type: 'string', examples: ['application/json'] },
  },
]

/** The /search path. */
export function searchPaths() {
  return {
    '/search': {
      get: {
        operationId: 'search',
        tags: ['extension', 'search'],
        summary: 'Search events with the query language',
        description:
          'One page of the events of `scope` that `q` matches, newest first by last seen time, ties broken by a stored id, so pages neither overlap ' +
          'nor skip while nothing is ingested. 20 events a page (`search_page_size`); past the last page `[]` (LeakIX’s clients read it as the end). ' +
          'Each page takes one token of the caller’s rate limit, like a lookup; how deep a caller may page is its plan’s `search_pages` ' +
          '(5 anonymous, 50 registered, 500 pro by default).',
        security: KEY_OPTIONAL,
        parameters,
        responses: {
          '200': {
            description: 'The page’s events, newest first; an empty array past the last page.',
            headers: {
              'x-query-notice': {
                description:
                  'One header per term of `q` that looks like another language’s operator (`AND`, `OR`, `NOT`, `!` or `=` after a name), which the query ' +
                  'searches as LeakIX does: `position N: ` (the term’s position, from 1) and how it was read and what to write instead (docs/search.md, ' +
                  '"Coming from Shodan or Lucene"). Characters outside printable ASCII are written `\\uXXXX`. Absent when no term needs it; set before the ' +
                  'search runs, so a refusal of such a query (422, 429) carries it too.',
                schema: patterned('^position [1-9][0-9]*: '),
                example:
                  'position 10: `AND` is searched as a word: LeakIX\'s language has no AND, OR, NOT or TO; write `+term` to require a term, `-term` to exclude one, and no sign for "any of"',
              },
            },
            content: {
              'application/json': {
                schema: { type: 'array', items: ref('event') },
                examples: {
                  page: { summary: 'A page (scope leak)', value: [exampleLeakEvent()] },
                  services: { summary: 'A page (scope service)', value: [exampleServiceEvent()] },
                  end: { summary: 'Past the last page', value: [] },
                },
              },
              [HTML]: { schema: { type: 'string', description: 'For a browser: the web view’s results page of a query (20 a page, each row linked to its host page).' } },
            },
          },
          '303': {
            description: 'A browser (accept preferring `text/html`): sent on to the web view’s page of what `q` names.',
            headers: { location: { description: '`/host/IP` or `/domain/NAME`.', required: true, schema: patterned('^/(host|domain)/') } },
          },
          '400': {
            description: 'No `scope` or another value, a `page` that is not an integer from 0, or a query that does not parse or check: the description names the position (from 1) and the offending term.',
            content: {
              'application/json': {
                schema: ref('error'),
                examples: {
                  field: error('Bad Request', 'bad query at position 12 (`countri`): there is no field `countri`; did you mean `country`?'),
                  range: error('Bad Request', 'bad query at position 1 (`summary:>5`): `summary` is a text field: ranges (`:>`) apply to integer, number and date fields'),
                  scope: error('Bad Request', 'The scope parameter is missing: give scope=service or scope=leak.'),
                },
              },
              [HTML]: { schema: { type: 'string', description: 'An HTML page (the web view).' } },
            },
          },
          '401': errorAnswer(
            '401',
            'The api-key header holds a key the service does not know. Without the header (or with an empty one) the caller is served on the anonymous plan.',
            'The api-key header holds no known key. Send a valid key, or no key (no api-key header, or an empty one) for the anonymous plan.',
          ),
          '403': errorAnswer(
            '403',
            'The page is beyond the caller’s plan (`search_pages`).',
            'The anonymous plan may read search pages 0 to 4 (100 events); page 5 is beyond them. Narrow the query, or use a key of a plan with more pages.',
          ),
          '406': errorAnswer('406', 'The accept header does not allow `application/json`.', 'The answer is application/json, which the accept header ("image/png") does not allow.'),
          '422': errorAnswer(
            '422',
            'The query is valid but too costly (docs/service.md, "Limits"): its cost per event is above the plan’s `max_query_cost` (refused before anything ' +
              'runs; the description names the costliest term and its position), or the search did the plan’s `search_work` (or read the store’s scan limit, ' +
              'or its statement ran past `search_timeout_ms`) without filling the page: add a selective term.',
            'The query costs 1204.2 work units per event it reads; the anonymous plan allows 1000 (docs/service.md, "Limits"). Its costliest term, at position 11 (`summary:~"([^a]{0,50}[^b]{0,50}){10}z"`), costs 1203.2: use a smaller pattern, fewer words or fewer fields.',
          ),
          '429': rateLimited(true, ' Also when the service already runs `max_searches` searches (then `retry-after: 1` and `x-limited-for: 1s`).'),
        },
      },
    },
  }
}
