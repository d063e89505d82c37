/** `l9kit hooks add|list|remove|test|deliveries|retry`: the hook API for a person at a terminal. */
import type { CreatedHook, Delivery, Hook, HookEventType, HookRequest, Severity } from '../../../schema/index.js'
import { DELIVERY_STATUSES, HOOK_EVENT_TYPES, SEVERITIES } from '../../../schema/index.js'
import { secretKey } from '../../../webhooks/signature.js'
import { oneOf, parse } from '../../args.js'
import { type Io, UsageError } from '../../command.js'
import { printable } from '../../../validate/printable.js'
import { apiCall, hookClient, needIds, noPositionals, SERVICE_OPTIONS } from './shared.js'

const ADD_OPTIONS = {
  ...SERVICE_OPTIONS,
  url: { type: 'string' },
  'min-severity': { type: 'string' },
  'event-types': { type: 'string' },
  secret: { type: 'string' },
} as const

/** `hooks add --url URL [--min-severity S] [--event-types T,...] [--secret whsec_…]`: prints the hook and, once, its secret. */
export async function add(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse('hooks add', argv, ADD_OPTIONS)
  noPositionals('hooks add', positionals)
  if (values.url === undefined) throw new UsageError("hooks add: --url is required (where deliveries are POSTed, e.g. http://127.0.0.1:9000/ for 'l9kit hooks listen')")
  const request: HookRequest = { url: values.url }
  if (values['min-severity'] !== undefined) request.min_severity = oneOf<Severity>('hooks add', 'min-severity', values['min-severity'], SEVERITIES, 'medium')
  if (values['event-types'] !== undefined) request.event_types = eventTypes(values['event-types'])
  if (values.secret !== undefined) {
    if (secretKey(values.secret) === null) throw new UsageError("hooks add: --secret must be 'whsec_' followed by base64 (omit it to let the service generate one)")
    request.secret = values.secret
  }
  const client = hookClient('hooks add', values, io)
  return apiCall('hooks add', io, async () => {
    const hook = await client.addHook(request)
    if (values.json) return void io.stdout.write(`${JSON.stringify(hook)}\n`)
    io.stdout.write(createdText(hook))
  })
}

/** `hooks list`: one hook per line (id, minimum severity, event types, URL). */
export async function list(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse('hooks list', argv, SERVICE_OPTIONS)
  noPositionals('hooks list', positionals)
  const client = hookClient('hooks list', values, io)
  return apiCall('hooks list', io, async () => {
    const hooks = await client.hooks()
    if (values.json) return void io.stdout.write(`${JSON.stringify(hooks)}\n`)
    for (const h of hooks) io.stdout.write(`${hookLine(h)}\n`)
    if (hooks.length === 0) io.stderr.write('no hooks\n')
  })
}

/** `hooks remove ID...`. */
export async function remove(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse('hooks remove', argv, SERVICE_OPTIONS)
  const ids = needIds('hooks remove', positionals, 'hook')
  const client = hookClient('hooks remove', values, io)
  return apiCall('hooks remove', io, async () => {
    for (const id of ids) {
      await client.removeHook(id)
      io.stdout.write(`removed ${id}\n`)
    }
  })
}

/** `hooks enable ID...`: makes disabled hooks active again (their parked deliveries stay parked: `hooks retry ID`). */
export async function enable(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse('hooks enable', argv, SERVICE_OPTIONS)
  const ids = needIds('hooks enable', positionals, 'hook')
  const client = hookClient('hooks enable', values, io)
  return apiCall('hooks enable', io, async () => {
    for (const id of ids) {
      const hook = await client.enableHook(id)
      io.stdout.write(values.json ? `${JSON.stringify(hook)}\n` : `enabled ${hook.id}\n`)
    }
  })
}

/** `hooks test ID`: asks the service to send the hook one sample event. */
export async function test(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse('hooks test', argv, SERVICE_OPTIONS)
  const [id] = needIds('hooks test', positionals, 'hook', 1)
  const client = hookClient('hooks test', values, io)
  return apiCall('hooks test', io, async () => {
    const delivery = await client.testHook(id!)
    io.stdout.write(values.json ? `${JSON.stringify(delivery ?? null)}\n` : `sample event queued for ${id}${delivery?.id ? ` as ${delivery.id}` : ''}\n`)
  })
}

/** `hooks deliveries ID [--status S]`: one delivery per line. */
export async function deliveries(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse('hooks deliveries', argv, { ...SERVICE_OPTIONS, status: { type: 'string' } })
  const [id] = needIds('hooks deliveries', positionals, 'hook', 1)
  const status = values.status === undefined ? undefined : oneOf('hooks deliveries', 'status', values.status, DELIVERY_STATUSES, 'pending')
  const client = hookClient('hooks deliveries', values, io)
  return apiCall('hooks deliveries', io, async () => {
    const found = await client.deliveries(id!, status)
    if (values.json) return void io.stdout.write(`${JSON.stringify(found)}\n`)
    for (const d of found) io.stdout.write(`${deliveryLine(d)}\n`)
    if (found.length === 0) io.stderr.write(`no ${status ?? ''}${status ? ' ' : ''}deliveries\n`)
  })
}

/** `hooks retry ID [DELIVERY]`: re-send one failed delivery, or all of the hook's. */
export async function retry(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse('hooks retry', argv, SERVICE_OPTIONS)
  if (positionals.length === 0 || positionals.length > 2) throw new UsageError("hooks retry: give a hook id, and optionally one delivery id (see 'l9kit hooks --help')")
  const [id, delivery] = positionals as [string, string | undefined]
  const client = hookClient('hooks retry', values, io)
  return apiCall('hooks retry', io, async () => {
    const result = delivery === undefined ? await client.retryFailed(id) : await client.retryDelivery(id, delivery)
    io.stdout.write(values.json ? `${JSON.stringify(result)}\n` : `${result.queued} ${result.queued === 1 ? 'delivery' : 'deliveries'} queued again\n`)
  })
}

function eventTypes(text: string): HookEventType[] {
  const types = text.split(',').map((t) => t.trim()).filter((t) => t !== '')
  if (types.length === 0) throw new UsageError(`hooks add: --event-types needs at least one of ${HOOK_EVENT_TYPES.join(', ')}`)
  for (const t of types) {
    if (!(HOOK_EVENT_TYPES as readonly string[]).includes(t)) throw new UsageError(`hooks add: --event-types: '${t}' is not one of ${HOOK_EVENT_TYPES.join(', ')}`)
  }
  return [...new Set(types)] as HookEventType[]
}

/** One hook per line; every member comes from the server (a receiver's answer is in the reason): escaped for the terminal. */
const hookLine = (h: Hook) =>
  printable(`${h.id}  ${h.min_severity.padEnd(8)}  ${h.event_types.join(',').padEnd(12)}  ${h.url}${h.state === 'disabled' ? `  DISABLED: ${h.disabled_reason ?? 'no reason given'}` : ''}`)

function createdText(h: CreatedHook): string {
  return [
    `created ${h.id}`,
    `  url           ${h.url}`,
    `  min_severity  ${h.min_severity}`,
    `  event_types   ${h.event_types.join(',')}`,
    `  secret        ${h.secret}`,
    '  (the secret is shown only now: keep it to verify deliveries, e.g. l9kit hooks listen --secret …)',
    '',
  ].join('\n')
}

function deliveryLine(d: Delivery): string {
  const last = d.last_status !== null ? String(d.last_status) : (d.last_error ?? '-')
  return printable(`${d.id}  ${d.status.padEnd(9)}  attempts ${d.attempts}  last ${last}  ${d.event_fingerprint}  ${d.updated_at}`)
}
