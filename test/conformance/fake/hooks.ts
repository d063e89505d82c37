/**
 * The fake's hook API (the routes of docs/hooks.md, simply): watched resources, hooks for the
 * pro key, POST /admin/events, and one in-order, signed delivery at a time per hook. Each
 * broken hook fixture in ../broken/ replaces one part of `HookBehaviour`.
 */
import { createHmac, randomBytes } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import ipaddr from 'ipaddr.js'
import type { Event } from '../../../src/schema/index.js'
import { SEVERITIES } from '../../../src/schema/index.js'
import { generateSecret, sign } from '../../../src/webhooks/signature.js'

export const FAKE_PRO_KEY = 'fake-pro-key'
export const FAKE_ADMIN_TOKEN = 'fake-admin-token'

export interface FakeResource {
  id: string
  type: 'domain' | 'ip' | 'network'
  value: string
}

export interface FakeHook {
  id: string
  url: string
  min_severity: (typeof SEVERITIES)[number]
  event_types: string[]
  secret: string
}

export interface HookBehaviour {
  /** Whether a watched resource covers an event. */
  covers(resource: FakeResource, event: Event): boolean
  /** Whether a hook takes an event its owner's resources cover (type listed, severity at or above the floor). */
  wants(hook: FakeHook, event: Event): boolean
  /** The signature headers of one attempt. */
  signatureHeaders(secret: string, id: string, timestamp: number, body: string): Record<string, string>
  /** The order a hook's new deliveries from one ingest batch are queued in (ingest order by default). */
  order<T>(batch: T[]): T[]
}

const rank = (severity: string) => SEVERITIES.indexOf(severity as (typeof SEVERITIES)[number])
const within = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`)

function inNetwork(ip: string, cidr: string): boolean {
  try {
    const address = ipaddr.process(ip)
    const range = ipaddr.parseCIDR(cidr)
    return address.kind() === range[0].kind() && address.match(range)
  } catch {
    return false
  }
}

export const CORRECT_HOOKS: HookBehaviour = {
  covers(resource, event) {
    if (resource.type === 'domain') return event.host !== '' && within(event.host.toLowerCase(), resource.value)
    if (resource.type === 'ip') return ipaddr.isValid(event.ip) && ipaddr.process(event.ip).toString() === resource.value
    return inNetwork(event.ip, resource.value)
  },
  wants(hook, event) {
    if (!hook.event_types.includes(event.event_type)) return false
    return event.event_type !== 'leak' || (rank(event.leak.severity) >= 0 && rank(event.leak.severity) <= rank(hook.min_severity))
  },
  signatureHeaders: (secret, id, timestamp, body) => ({ 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': sign(secret, id, timestamp, body) }),
  order: (batch) => batch,
}

/** A signature keyed with the secret's text instead of its base64-decoded bytes (a common mistake). */
export const textKeyedSignature = (secret: string, id: string, timestamp: number, body: string) =>
  `v1,${createHmac('sha256', secret).update(`${id}.${timestamp}.${body}`).digest('base64')}`

interface Queued {
  id: string
  body: string
  fingerprint: string
}

/** The hook API's state and routes, for one fake server; `events` is the fake's event list (lookups see what is ingested). */
export function hookApi(b: HookBehaviour, events: Event[], onFresh: (fresh: Event[]) => void = () => undefined) {
  const resources: FakeResource[] = []
  const hooks: FakeHook[] = []
  const queues = new Map<string, Queued[]>()
  const busy = new Set<string>()
  const stored = new Set(events.map((e) => e.event_fingerprint))
  let counter = 0
  const newId = (prefix: string) => `${prefix}_${(++counter).toString(36)}${randomBytes(4).toString('hex')}`
  let closed = false

  /** Sends a hook's queue, one delivery at a time, each retried a few times. */
  async function pump(hook: FakeHook) {
    if (busy.has(hook.id)) return
    busy.add(hook.id)
    const queue = queues.get(hook.id)!
    while (queue.length > 0 && !closed && hooks.includes(hook)) {
      const next = queue[0]!
      for (let attempt = 0; attempt < 3 && !closed; attempt++) {
        const timestamp = Math.floor(Date.now() / 1000)
        try {
          const r = await fetch(hook.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'user-agent': 'fake', ...b.signatureHeaders(hook.secret, next.id, timestamp, next.body) },
            body: next.body,
            redirect: 'manual',
            signal: AbortSignal.timeout(2000),
          })
          await r.arrayBuffer()
          if (r.ok) break
        } catch {
          // refused or timed out: try again
        }
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      queue.shift()
    }
    busy.delete(hook.id)
  }

  function ingest(text: string): { accepted: number; duplicates: number; rejected: { line: number; errors: string[] }[] } {
    const result = { accepted: 0, duplicates: 0, rejected: [] as { line: number; errors: string[] }[] }
    const fresh: Event[] = []
    text.split('\n').forEach((line, i) => {
      if (line.trim() === '') return
      let event: Event
      try {
        event = JSON.parse(line) as Event
      } catch {
        result.rejected.push({ line: i + 1, errors: ['not JSON'] })
        return
      }
      if (stored.has(event.event_fingerprint)) {
        result.duplicates++
        return
      }
      stored.add(event.event_fingerprint)
      events.push(event)
      fresh.push(event)
      result.accepted++
    })
    onFresh(fresh)
    for (const hook of hooks) {
      const matching = fresh.filter((e) => resources.some((r) => b.covers(r, e)) && b.wants(hook, e))
      const queue = queues.get(hook.id)!
      for (const e of b.order(matching)) queue.push({ id: newId('msg'), body: JSON.stringify(e), fingerprint: e.event_fingerprint })
      void pump(hook)
    }
    return result
  }

  /** Answers a hook API or ingest request; false when the path is none of them. */
  function handle(req: IncomingMessage, res: ServerResponse, path: string, body: string): boolean {
    const send = (status: number, value?: unknown) => {
      if (value === undefined) return void res.writeHead(status).end()
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value))
    }
    const error = (status: number, title: string, description: string) => send(status, { title, description })
    if (path === '/admin/events') {
      if (req.method !== 'POST') return error(404, 'Not Found', 'no such route'), true
      if (req.headers.authorization !== `Bearer ${FAKE_ADMIN_TOKEN}`) return error(401, 'Unauthorized', 'admin token needed'), true
      return send(200, ingest(body)), true
    }
    const m = /^\/api\/(resources|hooks)(?:\/([^/]+)(?:\/(test|deliveries|retry-failed))?)?$/.exec(path)
    if (!m) return false
    if (req.headers['api-key'] !== FAKE_PRO_KEY) return error(req.headers['api-key'] ? 403 : 401, 'Forbidden', 'hooks need a pro key'), true
    const [, kind, id, action] = m
    let json: Record<string, unknown> = {}
    if (req.method === 'POST' && action === undefined) {
      try {
        json = JSON.parse(body) as Record<string, unknown>
      } catch {
        return error(400, 'Bad Request', 'the body is not JSON'), true
      }
    }
    if (kind === 'resources') {
      if (id === undefined && req.method === 'GET') return send(200, resources), true
      if (id === undefined && req.method === 'POST') {
        const type = json.type as FakeResource['type']
        const value = String(json.value ?? '').toLowerCase()
        if (!['domain', 'ip', 'network'].includes(type)) return error(400, 'Bad Request', 'type: must be domain, ip or network'), true
        const resource: FakeResource = { id: newId('res'), type, value: type === 'ip' ? ipaddr.process(value).toString() : value }
        resources.push(resource)
        return send(201, resource), true
      }
      const at = resources.findIndex((r) => r.id === id)
      if (req.method === 'DELETE' && at >= 0) return resources.splice(at, 1), send(204), true
      return error(404, 'Not Found', `no resource ${id}`), true
    }
    if (id === undefined && req.method === 'GET') return send(200, hooks.map(({ secret: _, ...h }) => h)), true
    if (id === undefined && req.method === 'POST') {
      if (typeof json.url !== 'string') return error(400, 'Bad Request', 'url: required'), true
      const hook: FakeHook = {
        id: newId('hook'),
        url: json.url,
        min_severity: (json.min_severity as FakeHook['min_severity']) ?? 'medium',
        event_types: (json.event_types as string[]) ?? ['leak'],
        secret: (json.secret as string) ?? generateSecret(),
      }
      hooks.push(hook)
      queues.set(hook.id, [])
      return send(201, hook), true
    }
    const hook = hooks.find((h) => h.id === id)
    if (!hook) return error(404, 'Not Found', `no hook ${id}`), true
    if (action === undefined && req.method === 'GET') return send(200, { id: hook.id, url: hook.url, min_severity: hook.min_severity, event_types: hook.event_types }), true
    if (action === undefined && req.method === 'DELETE') return hooks.splice(hooks.indexOf(hook), 1), send(204), true
    if (action === 'test' && req.method === 'POST') {
      queues.get(hook.id)!.push({ id: newId('msg'), body: JSON.stringify(events[0]), fingerprint: events[0]!.event_fingerprint })
      void pump(hook)
      return send(202), true
    }
    if (action === 'deliveries' && req.method === 'GET') return send(200, []), true
    if (action === 'retry-failed' && req.method === 'POST') return send(200, { queued: 0 }), true
    return error(404, 'Not Found', 'no such route'), true
  }

  return {
    handle,
    /** Stops sending (the server is closing). */
    close: () => {
      closed = true
    },
  }
}
