/**
 * The OpenAPI 3.1 description of the lookup API and its alert hook, built from the same
 * schema documents (3.1 uses JSON Schema 2020-12, so they are embedded as they are, with
 * `$defs` references pointed at `components/schemas`).
 */
import { schemaDocument } from './documents.js'
import type { JsonSchema } from './json-schema.js'

const toComponents = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(toComponents)
  if (typeof node !== 'object' || node === null) return node
  const out: JsonSchema = {}
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema' || key === '$id' || key === '$defs') continue
    out[key] = key === '$ref' ? String(value).replace('#/$defs/', '#/components/schemas/') : toComponents(value)
  }
  return out
}

const json = (schema: JsonSchema, description: string) => ({
  description,
  content: { 'application/json': { schema } },
})

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

const errors = {
  '400': json(ref('error'), 'Malformed IP address or domain name (reference service).'),
  '401': json(ref('error'), 'Unknown API key (reference service).'),
  '429': {
    description: 'Rate limit reached. Reason phrase `Rate-limited`. Wait for `x-limited-for` before the next request.',
    headers: {
      'x-limited-for': {
        description: 'How long to wait, as a Go duration string such as `734ms`, `1.2s` or `1m2.5s`.',
        schema: { type: 'string', pattern: '^(?:\\d+(?:\\.\\d*)?(?:ns|us|µs|μs|ms|s|m|h))+$' },
      },
    },
    content: { 'application/json': { schema: ref('error') } },
  },
}

const lookup = (summary: string, param: string, description: string) => ({
  get: {
    summary,
    parameters: [{ name: param, in: 'path', required: true, description, schema: { type: 'string' } }],
    responses: {
      '200': json(ref('lookup-result'), '`Services` and `Leaks`, each an array of event documents or null when nothing is known.'),
      ...errors,
    },
  },
})

export function openApiDocument(): JsonSchema {
  const event = schemaDocument('event')
  const schemas: JsonSchema = {}
  for (const [name, def] of Object.entries(event.$defs as JsonSchema)) schemas[name] = toComponents(def)
  schemas.event = toComponents(event)
  schemas['lookup-result'] = toComponents(schemaDocument('lookup-result'))
  schemas['subdomain-entry'] = toComponents((schemaDocument('subdomains') as { items: unknown }).items)
  schemas.error = toComponents(schemaDocument('error'))
  // The lookup result embeds the event through its own $defs; point it at the shared component.
  ;(schemas['lookup-result'] as JsonSchema).properties = {
    Services: { anyOf: [{ type: 'array', items: ref('event') }, { type: 'null' }], description: 'Service events; null when none.' },
    Leaks: { anyOf: [{ type: 'array', items: ref('event') }, { type: 'null' }], description: 'Leak events; null when none.' },
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Network exposure lookup API',
      version: '0.1.0',
      description:
        'Read-only lookups of the events known for a host or domain, the subdomains of a domain, and alert hooks ' +
        'that push matching events to a user endpoint (pro plan). Error bodies and 400/401 are the reference ' +
        "service's choices where the specification says nothing.",
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: 'http://127.0.0.1:8080', description: 'l9kit reference service (`l9kit serve`)' }],
    security: [{ apiKey: [] }, {}],
    paths: {
      '/domain/{domain}': lookup('Events of a domain and its subdomains', 'domain', 'A domain name.'),
      '/host/{ip}': lookup('Events of an IP address', 'ip', 'An IPv4 or IPv6 address.'),
      '/api/subdomains/{domain}': {
        get: {
          summary: 'Subdomains known for a domain',
          description: 'Registered and pro keys receive more entries than anonymous callers. No order is promised.',
          parameters: [{ name: 'domain', in: 'path', required: true, description: 'A domain name.', schema: { type: 'string' } }],
          responses: {
            '200': json({ type: 'array', items: ref('subdomain-entry') }, 'Subdomain entries.'),
            ...errors,
          },
        },
      },
    },
    webhooks: {
      alert: {
        post: {
          summary: 'Alert hook delivery (pro plan)',
          description:
            'One POST per matching event to the endpoint the user configured, for events at or above the chosen severity.',
          requestBody: { required: true, content: { 'application/json': { schema: ref('event') } } },
          responses: { '200': { description: 'Any 2xx status acknowledges the delivery.' } },
        },
      },
    },
    components: {
      schemas,
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'api-key' } },
    },
  }
}
