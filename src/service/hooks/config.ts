/**
 * The hook members of the service configuration file (docs/hooks.md): `hook_delivery`,
 * `allow_private_hooks`, and per key `resources` and `hooks`. Problems are reported through the
 * file's `FILE: /pointer: message` reporter; a hook's secret never appears in a message.
 */
import type { TSchema } from 'typebox'
import { HookRequest, ResourceRequest } from '../../schema/index.js'
import { secretKey } from '../../webhooks/signature.js'
import { bodyProblems } from './check-body.js'
import { DEFAULT_DELIVERY, type DeliverySettings } from './dispatcher.js'
import { canonicalResource } from './match.js'
import { urlShapeProblem } from './ssrf.js'
import type { DeclaredHooks } from '../store/declared-hooks.js'
import type { NewHook, WatchedResource } from '../store/hook-types.js'


export interface HookConfig {
  hookDelivery: DeliverySettings
  allowPrivateHooks: boolean
  declared: DeclaredHooks
}

type Problem = (pointer: string, message: string) => void

/** Members of `hook_delivery`, their config names and smallest values. */
const DELIVERY_MEMBERS: [name: string, key: keyof DeliverySettings, min: number][] = [
  ['timeout_ms', 'timeoutMs', 1],
  ['attempts', 'attempts', 1],
  ['backoff_ms', 'backoffMs', 0],
  ['backoff_max_ms', 'backoffMaxMs', 0],
  ['queue_limit', 'queueLimit', 1],
]

/** The defaults: no declarations, private targets refused, DEFAULT_DELIVERY. */
export function defaultHookConfig(): HookConfig {
  return { hookDelivery: { ...DEFAULT_DELIVERY }, allowPrivateHooks: false, declared: { resources: [], hooks: [] } }
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
  if (!isObject(value)) return problem('/hook_delivery', `must be an object {${DELIVERY_MEMBERS.map((m) => m[0]).join(', ')}} (got ${show(value)})`)
  const known = DELIVERY_MEMBERS.map((m) => m[0])
  for (const member of Object.keys(value)) {
    if (!known.includes(member)) problem(`/hook_delivery/${member}`, `unknown member (known: ${known.join(', ')})`)
  }
  for (const [name, key, min] of DELIVERY_MEMBERS) {
    const v = value[name]
    if (v === undefined) continue
    if (!Number.isSafeInteger(v) || (v as number) < min) problem(`/hook_delivery/${name}`, `must be an integer ≥ ${min} (got ${show(v)})`)
    else settings[key] = v as number
  }
  if (settings.backoffMaxMs < settings.backoffMs) {
    problem('/hook_delivery/backoff_max_ms', `must be at least backoff_ms (${settings.backoffMs})`)
  }
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
  for (const p of problems) problem(`${pointer}${p.pointer}`, p.pointer.endsWith('/secret') ? 'must be whsec_ followed by the base64 of 24 to 64 bytes (value not shown)' : p.message)
  return problems.length === 0
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

function show(value: unknown): string {
  if (value === undefined) return 'nothing'
  const text = JSON.stringify(value)
  return text.length > 40 ? text.slice(0, 37) + '...' : text
}
