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
/** Whether a hook receives deliveries. */
export const HOOK_STATES = ['active', 'disabled'] as const

/**
 * How long a hook's signing secret may be, in bytes (the base64 after `whsec_`): the Standard
 * Webhooks specification asks for at least 24 bytes (192 bits) and at most 64 (512 bits).
 */
export const SECRET_BYTES = Object.freeze({ min: 24, max: 64 })

const B64 = '[A-Za-z0-9+/]'
/**
 * `whsec_` + standard base64 of 24 to 64 bytes: n bytes are ⌊n/3⌋ whole quads, then `XX==` when
 * one byte is left and `XXX=` when two are; so 8 to 21 whole quads, optionally `XX==` (24 to 64
 * bytes), or 8 to 20 whole quads and `XXX=` (26 to 62).
 */
const SECRET_PATTERN = `^whsec_(?:(?:${B64}{4}){8,21}(?:${B64}{2}==)?|(?:${B64}{4}){8,20}${B64}{3}=)$`

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
export const HookState = Type.Union(
  literals(HOOK_STATES),
  {
    title: 'Hook state',
    description:
      '`active`: receives deliveries. `disabled`: receives nothing (its receiver answered 410 Gone, or a delivery failed for its whole retry schedule); its pending deliveries were parked as failed. `POST /api/hooks/{id}/enable` makes it active again.',
  },
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
        description: `Signing secret, \`whsec_\` followed by the standard base64 of ${SECRET_BYTES.min} to ${SECRET_BYTES.max} bytes (Standard Webhooks); generated (32 bytes) when absent.`,
        pattern: SECRET_PATTERN,
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
  // Optional in the shape so clients keep reading servers older than l9kit 0.3; the reference service always sends them.
  state: Type.Optional(HookState),
  disabled_at: Type.Optional(
    Type.Union([Time('Disabled at', 'When the hook was disabled.'), Type.Null()], { description: 'When the hook was disabled; null while it is active.' }),
  ),
  disabled_reason: Type.Optional(
    Type.Union([Type.String(), Type.Null()], { title: 'Disabled reason', description: 'Why the hook was disabled; null while it is active.' }),
  ),
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
export type HookState = Static<typeof HookState>
export type ResourceRequest = Static<typeof ResourceRequest>
export type Resource = Static<typeof Resource>
export type HookRequest = Static<typeof HookRequest>
export type Hook = Static<typeof Hook>
export type CreatedHook = Static<typeof CreatedHook>
export type Delivery = Static<typeof Delivery>
export type RetryResult = Static<typeof RetryResult>
