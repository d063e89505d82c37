/** Rows of the `hooks` and `deliveries` tables, and the records the HookStore interface returns for them. */
import type { HookEventType, Severity } from '../../../schema/index.js'
import type { DeliveryRecord, HookRecord } from '../hook-types.js'

export interface HookRow {
  id: string
  owner: string
  url: string
  min_severity: string
  event_types: string[]
  secret: string
  state: HookRecord['state']
  disabled_at: string | null
  disabled_reason: string | null
}

/** The columns of a HookRow, for SELECT and RETURNING lists. */
export const HOOK_COLUMNS = ['id', 'owner', 'url', 'min_severity', 'event_types', 'secret', 'state', 'disabled_at', 'disabled_reason']

export interface DeliveryRow {
  id: string
  hook_id: string
  fingerprint: string
  status: DeliveryRecord['status']
  attempts: number
  last_status: number | null
  last_error: string | null
  created_at: string
  updated_at: string
  next_attempt_at: string | null
}

export function hookRecord(r: HookRow): HookRecord {
  return {
    id: r.id,
    owner: r.owner,
    url: r.url,
    minSeverity: r.min_severity as Severity,
    eventTypes: [...r.event_types] as HookEventType[],
    secret: r.secret,
    state: r.state,
    disabledAt: r.disabled_at === null ? null : Number(r.disabled_at),
    disabledReason: r.disabled_reason,
  }
}

export function deliveryRecord(r: DeliveryRow): DeliveryRecord {
  return {
    id: r.id,
    hookId: r.hook_id,
    fingerprint: r.fingerprint,
    status: r.status,
    attempts: r.attempts,
    lastStatus: r.last_status,
    lastError: r.last_error,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    nextAttemptAt: r.next_attempt_at === null ? null : Number(r.next_attempt_at),
  }
}
