/** Hook store records as the API's bodies (src/schema/hooks.ts): snake_case members, RFC 3339 times. */
import type { CreatedHook, Delivery, Hook, Resource } from '../../schema/index.js'
import type { DeliveryRecord, HookRecord, WatchedResource } from '../hooks/index.js'

const rfc3339 = (ms: number) => new Date(ms).toISOString()

export const resourceBody = (r: WatchedResource): Resource => ({ id: r.id, type: r.type, value: r.value })

export const hookBody = (h: HookRecord): Hook => ({
  id: h.id,
  url: h.url,
  min_severity: h.minSeverity,
  event_types: h.eventTypes,
  state: h.state,
  disabled_at: h.disabledAt === null ? null : rfc3339(h.disabledAt),
  disabled_reason: h.disabledReason,
})

export const createdHookBody = (h: HookRecord): CreatedHook => ({ ...hookBody(h), secret: h.secret })

export const deliveryBody = (d: DeliveryRecord): Delivery => ({
  id: d.id,
  hook_id: d.hookId,
  event_fingerprint: d.fingerprint,
  status: d.status,
  attempts: d.attempts,
  last_status: d.lastStatus,
  last_error: d.lastError,
  created_at: rfc3339(d.createdAt),
  updated_at: rfc3339(d.updatedAt),
  next_attempt_at: d.nextAttemptAt === null ? null : rfc3339(d.nextAttemptAt),
})
