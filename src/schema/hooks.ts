/**
 * Our extension of the API for alert hooks (docs/hooks.md): watched resources, hooks and their
 * deliveries. Request and answer bodies are defined here once; the service checks requests
 * against them, the OpenAPI document publishes them, and the types come from `Static<>`.
 */
import Type, { type Static, type TLiteral } from 'typebox'
import { SEVERITIES } from './empty.js'

/** What a watched resource is: a domain (and its subdomains), one IP, or a CIDR network. */
export const RESOURCE_TYPES = ['domain', 'ip', 'network'] as const
/** Event types a hook can ask for. */
export const HOOK_EVENT_TYPES = ['leak', 'service'] as const
/** Where a delivery stands: waiting or being retried, sent (2xx), or parked after its last attempt. */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const

/** Literal schemas of a constant list, typed as a tuple so `Static` gives the union (a plain `map` types as `never`). */
const literals = <const T extends readonly string[]>(values: T) => values.map((v) => Type.Literal(v)) as unknown as { -readonly [K in keyof T]: TLiteral<T[K]> }

const Id = (title: string, prefix: string) =>
  Type.String({ title, description: `Opaque identifier, \`${prefix}_\` followed by letters and digits.`, pattern: `^${prefix}_[0-9A-Za-z]+$` })
const Time = (title: string, description: string) => Type.String({ title, description, format: 'date-time' })

export const ResourceType = Type.Union(
  literals(RESOURCE_TYPES),
  { title: 'Resource type', description: '`domain` covers the name and its subdomains; `ip` one address; `network` a CIDR block, v4 or v6.' },
)
export const HookEventType = Type.Union(
  literals(HOOK_EVENT_TYPES),
  { title: 'Hook event type', description: 'An `event_type` a hook receives.' },
)
export const Severity = Type.Union(
  literals(SEVERITIES),
  { title: 'Severity', description: 'Leak severity, most severe first: critical > high > medium > low > info.' },
)
export const DeliveryStatus = Type.Union(
  literals(DELIVERY_STATUSES),
  { title: 'Delivery status', description: '`pending` (waiting or being retried), `delivered` (a 2xx answer), `failed` (parked).' },
)

export const ResourceRequest = Type.Object(
  {
    type: ResourceType,
    value: Type.String({ title: 'Value', description: 'A domain name, an IP address (any spelling) or a CIDR network.', minLength: 1, maxLength: 253 }),
  },
  { title: 'Resource request', description: 'Body of POST /api/resources.', additionalProperties: false },
)

export const Resource = Type.Object(
  {
    id: Id('Resource id', 'res'),
    type: ResourceType,
    value: Type.String({ title: 'Value', description: 'The value in canonical spelling (lower-case name, RFC 5952 IPv6, network address of the block).' }),
  },
  { title: 'Resource', description: 'A resource the key’s owner watches; alerts concern events it covers.' },
)

export const Resources = Type.Array(Resource, { title: 'Resources', description: 'Answer of GET /api/resources, oldest first.' })

export const HookRequest = Type.Object(
  {
    url: Type.String({ title: 'URL', description: 'The `http:` or `https:` endpoint deliveries are POSTed to.', minLength: 1, maxLength: 2048 }),
    min_severity: Type.Optional(Severity), // default medium
    event_types: Type.Optional(
      Type.Array(HookEventType, { description: 'Event types delivered (default `["leak"]`).', minItems: 1, uniqueItems: true }),
    ),
    secret: Type.Optional(
      Type.String({
        title: 'Secret',
        description: 'Signing secret, `whsec_` followed by the base64 of 24 to 64 bytes; generated when absent.',
        // Whole base64 quads: 8 to 22 of them, the last one possibly padded.
        pattern: '^whsec_(?:[A-Za-z0-9+/]{4}){7,21}(?:[A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2}==)$',
      }),
    ),
  },
  { title: 'Hook request', description: 'Body of POST /api/hooks.', additionalProperties: false },
)

const hookMembers = {
  id: Id('Hook id', 'hook'),
  url: Type.String({ title: 'URL', description: 'The endpoint deliveries are POSTed to.' }),
  min_severity: Severity,
  event_types: Type.Array(HookEventType, { title: 'Event types', description: 'Event types delivered.' }),
}

export const Hook = Type.Object(hookMembers, { title: 'Hook', description: 'A hook as listed: its secret is never shown again.' })

export const CreatedHook = Type.Object(
  { ...hookMembers, secret: Type.String({ title: 'Secret', description: 'The signing secret: shown only in this answer.' }) },
  { title: 'Created hook', description: 'Answer of POST /api/hooks: the hook and its signing secret.' },
)

export const Hooks = Type.Array(Hook, { title: 'Hooks', description: 'Answer of GET /api/hooks, oldest first.' })

export const Delivery = Type.Object(
  {
    id: Id('Delivery id', 'msg'),
    hook_id: Id('Hook id', 'hook'),
    event_fingerprint: Type.String({ title: 'Event fingerprint', description: 'The delivered event’s `event_fingerprint`.' }),
    status: DeliveryStatus,
    attempts: Type.Integer({ title: 'Attempts', description: 'POSTs made so far.', minimum: 0 }),
    last_status: Type.Union([Type.Integer({ minimum: 100, maximum: 599 }), Type.Null()], {
      title: 'Last status',
      description: 'HTTP status of the last attempt; null when it got no answer or none was made.',
    }),
    last_error: Type.Union([Type.String(), Type.Null()], {
      title: 'Last error',
      description: 'Why the last attempt failed (timeout, refused, non-2xx, refused address, queue full); null when none failed.',
    }),
    created_at: Time('Created at', 'When the delivery was queued.'),
    updated_at: Time('Updated at', 'When its status last changed.'),
    next_attempt_at: Type.Union([Time('Next attempt at', 'When it is tried next.'), Type.Null()], {
      description: 'When a pending delivery is tried next; null otherwise.',
    }),
  },
  { title: 'Delivery', description: 'One event on its way to one hook; its id is the `webhook-id` header of every attempt.' },
)

export const Deliveries = Type.Array(Delivery, { title: 'Deliveries', description: 'Answer of GET /api/hooks/:id/deliveries, oldest first.' })

export const RetryResult = Type.Object(
  { queued: Type.Integer({ title: 'Queued', description: 'Deliveries put back in the queue.', minimum: 0 }) },
  { title: 'Retry result', description: 'Answer of the retry routes.' },
)

export type ResourceType = Static<typeof ResourceType>
export type HookEventType = Static<typeof HookEventType>
export type Severity = Static<typeof Severity>
export type DeliveryStatus = Static<typeof DeliveryStatus>
export type ResourceRequest = Static<typeof ResourceRequest>
export type Resource = Static<typeof Resource>
export type HookRequest = Static<typeof HookRequest>
export type Hook = Static<typeof Hook>
export type CreatedHook = Static<typeof CreatedHook>
export type Delivery = Static<typeof Delivery>
export type RetryResult = Static<typeof RetryResult>
