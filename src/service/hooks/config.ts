/**
 * The hook members of the service configuration file (docs/hooks.md): `hook_delivery`,
 * `allow_private_hooks`, and per key `resources` and `hooks`. Problems are reported through the
 * file's `FILE: /pointer: message` reporter; a hook's secret never appears in a message.
 */
import type { TSchema } from 'typebox'
import { HookRequest, ResourceRequest, SECRET_BYTES } from '../../schema/index.js'
import { secretKey } from '../../webhooks/signature.js'
import { bodyProblems } from './check-body.js'
import { DEFAULT_DELIVERY, type DeliverySettings } from './dispatcher.js'
import { canonicalResource } from './match.js'
import { urlShapeProblem } from './ssrf.js'
import { isObject, type Problem, show } from '../config-reading.js'
import type { DeclaredHooks } from '../store/declared-hooks.js'
import type { NewHook, WatchedResource } from '../store/hook-types.js'


export interface HookConfig {
  hookDelivery: DeliverySettings
  allowPrivateHooks: boolean
  declared: DeclaredHooks
}

/** Integer members of `hook_delivery`: config name, setting, smallest value. */
const DELIVERY_MEMBERS: [name: string, key: 'timeoutMs' | 'retryAfterMaxMs' | 'queueLimit', min: number][] = [
  ['timeout_ms', 'timeoutMs', 1],
  ['retry_after_max_ms', 'retryAfterMaxMs', 0],
  ['queue_limit', 'queueLimit', 1],
]
/** Members of l9kit 0.2 that still work: an exponential schedule (attempts, first wait, largest wait). */
const LEGACY_MEMBERS = ['attempts', 'backoff_ms', 'backoff_max_ms'] as const
const KNOWN = [...DELIVERY_MEMBERS.map((m) => m[0]), 'retry_schedule_ms', ...LEGACY_MEMBERS]
/** Most entries in a retry schedule (so most attempts per delivery). */
const MAX_SCHEDULE = 10_000

/** The defaults: no declarations, private targets refused, DEFAULT_DELIVERY. */
export function defaultHookConfig(): HookConfig {
  return {
    hookDelivery: { ...DEFAULT_DELIVERY, retryScheduleMs: [...DEFAULT_DELIVERY.retryScheduleMs] },
    allowPrivateHooks: false,
    declared: { resources: [], hooks: [] },
  }
}

/** Reads the hook members of a parsed configuration document (`keys` already checked by the caller). */
export function readHookConfig(doc: Record<string, unknown>, problem: Problem): HookConfig {
  const config = defaultHookConfig()
  if (doc.allow_private_hooks !== undefined) {
    if (typeof doc.allow_private_hooks !== 'boolean') problem('/allow_private_hooks', `must be true or false (got ${show(doc.allow_private_hooks)})`)
    else config.allowPrivateHooks = doc.allow_private_hooks
  }
  if (doc.hook_delivery !== undefined) readDelivery(doc.hook_delivery, config.hookDelivery, problem)
  if (Array.isArray(doc.keys)) {
    doc.keys.forEach((entry: unknown, i) => {
      if (isObject(entry)) readDeclared(entry, `/keys/${i}`, config, problem)
    })
  }
  return config
}

function readDelivery(value: unknown, settings: DeliverySettings, problem: Problem): void {
  if (!isObject(value)) return problem('/hook_delivery', `must be an object {${KNOWN.join(', ')}} (got ${show(value)})`)
  for (const member of Object.keys(value)) {
    if (!KNOWN.includes(member)) problem(`/hook_delivery/${member}`, `unknown member (known: ${KNOWN.join(', ')})`)
  }
  for (const [name, key, min] of DELIVERY_MEMBERS) {
    const v = value[name]
    if (v === undefined) continue
    if (!Number.isSafeInteger(v) || (v as number) < min) problem(`/hook_delivery/${name}`, `must be an integer ≥ ${min} (got ${show(v)})`)
    else settings[key] = v as number
  }
  const legacy = LEGACY_MEMBERS.filter((m) => value[m] !== undefined)
  if (value.retry_schedule_ms !== undefined) {
    if (legacy.length > 0) return problem(`/hook_delivery/${legacy[0]}`, 'give retry_schedule_ms or the older attempts/backoff_ms/backoff_max_ms, not both')
    const schedule = value.retry_schedule_ms
    if (!Array.isArray(schedule) || schedule.length > MAX_SCHEDULE || !schedule.every((v) => Number.isSafeInteger(v) && (v as number) >= 0)) {
      return problem('/hook_delivery/retry_schedule_ms', `must be a list of at most ${MAX_SCHEDULE} waits in milliseconds (integers ≥ 0), one per retry (got ${show(schedule)})`)
    }
    settings.retryScheduleMs = schedule as number[]
  } else if (legacy.length > 0) readLegacy(value, settings, problem)
}

/** `attempts`, `backoff_ms`, `backoff_max_ms` (l9kit 0.2): retry n waits min(backoff_max_ms, backoff_ms × 2^(n−1)). */
function readLegacy(value: Record<string, unknown>, settings: DeliverySettings, problem: Problem): void {
  const read = (name: string, min: number, fallback: number, max = Number.MAX_SAFE_INTEGER): number | null => {
    const v = value[name]
    if (v === undefined) return fallback
    if (Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max) return v as number
    problem(`/hook_delivery/${name}`, `must be an integer ≥ ${min}${Number.isSafeInteger(v) && (v as number) > max ? ` and ≤ ${max}` : ''} (got ${show(v)})`)
    return null
  }
  const attempts = read('attempts', 1, 8, MAX_SCHEDULE + 1)
  const first = read('backoff_ms', 0, 1_000)
  const largest = read('backoff_max_ms', 0, 60_000)
  if (first !== null && largest !== null && largest < first) return problem('/hook_delivery/backoff_max_ms', `must be at least backoff_ms (${first})`)
  if (attempts === null || first === null || largest === null) return
  settings.retryScheduleMs = Array.from({ length: attempts - 1 }, (_, n) => Math.min(largest, first * 2 ** Math.min(n, 40)))
}

/** A key's `resources` and `hooks` (hooks only on pro keys). */
function readDeclared(entry: Record<string, unknown>, at: string, config: HookConfig, problem: Problem): void {
  const owner = typeof entry.name === 'string' ? entry.name : ''
  const list = (member: string): unknown[] => {
    const value = entry[member]
    if (value === undefined) return []
    if (Array.isArray(value)) return value
    problem(`${at}/${member}`, `must be an array (got ${show(value)})`)
    return []
  }
  list('resources').forEach((item, j) => {
    const pointer = `${at}/resources/${j}`
    if (!reportSchema(ResourceRequest, item, pointer, problem)) return
    const { type, value } = item as { type: WatchedResource['type']; value: string }
    const canonical = canonicalResource(type, value)
    if (!canonical.ok) return problem(`${pointer}/value`, canonical.reason)
    config.declared.resources.push({ owner, type, value: canonical.value })
  })
  const hooks = list('hooks')
  if (hooks.length > 0 && entry.plan !== 'pro') {
    return problem(`${at}/hooks`, `hooks are for pro keys only (this key's plan is ${show(entry.plan)})`)
  }
  hooks.forEach((item, j) => {
    const pointer = `${at}/hooks/${j}`
    if (!reportSchema(HookRequest, item, pointer, problem)) return
    const hook = item as { url: string; min_severity?: NewHook['minSeverity']; event_types?: NewHook['eventTypes']; secret?: string }
    // Without the secret, the receiver could not check signatures: a declared hook names it.
    if (hook.secret === undefined) return problem(`${pointer}/secret`, 'is required in the file (whsec_ + base64), so the receiver can verify signatures')
    if (secretKey(hook.secret) === null) return problem(`${pointer}/secret`, 'must be whsec_ followed by base64 (value not shown)')
    const urlProblem = urlShapeProblem(hook.url, config.allowPrivateHooks)
    if (urlProblem !== null) return problem(`${pointer}/url`, urlProblem)
    config.declared.hooks.push({ owner, url: hook.url, minSeverity: hook.min_severity ?? 'medium', eventTypes: hook.event_types ?? ['leak'], secret: hook.secret })
  })
}

/** Reports every schema problem of a declared item under its pointer; true when it has none. */
function reportSchema(schema: TSchema, item: unknown, pointer: string, problem: Problem): boolean {
  const problems = bodyProblems(schema, item)
  for (const p of problems) problem(`${pointer}${p.pointer}`, p.pointer.endsWith('/secret') ? `must be whsec_ followed by the base64 of ${SECRET_BYTES.min} to ${SECRET_BYTES.max} bytes (value not shown)` : p.message)
  return problems.length === 0
}
