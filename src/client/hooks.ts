/**
 * Typed client of our hook API (docs/hooks.md): watched resources, hooks, their deliveries,
 * and the admin ingest route that makes events happen. Built on `LookupClient.request`, so it
 * is paced and waits out 429s the same way; every answer is checked against the TypeBox
 * bodies of src/schema/hooks.ts, and a refusal becomes a `HookApiError` carrying the
 * service's `{title, description}`.
 */
import type { TSchema } from 'typebox'
import Value from 'typebox/value'
import {
  CreatedHook,
  Deliveries,
  type Delivery,
  type DeliveryStatus,
  type Hook,
  Hook as HookSchema,
  type HookRequest,
  Hooks,
  type Resource,
  Resource as ResourceSchema,
  type ResourceRequest,
  Resources,
  type RetryResult,
  RetryResult as RetryResultSchema,
} from '../schema/index.js'
import { type CallOptions, type ClientOptions, errorText, LookupClient, segment } from './client.js'
import { ClientError } from './errors.js'
import type { Method, RawResponse } from './http.js'

/** A non-2xx answer of the hook API, with the service's error body when it sent one. */
export class HookApiError extends ClientError {
  override name = 'HookApiError'
  /** `title` of the `{title, description}` body; the status line's reason when there was none. */
  readonly title: string
  /** `description` of the body; empty when there was none. */
  readonly description: string
  constructor(message: string, response: RawResponse) {
    super('http', message, { response })
    const body = parseErrorBody(response.body)
    this.title = body?.title ?? response.statusText
    this.description = body?.description ?? ''
  }
}

/** What `POST /admin/events` answers: counts and the lines it refused, with why. */
export interface IngestSummary {
  accepted: number
  duplicates: number
  rejected: { line: number; errors: unknown[] }[]
}

export class HookClient {
  /** The underlying paced client (its `apiKey` is the one sent on hook routes). */
  readonly http: LookupClient

  /** Same options as the lookup client; `apiKey` is the key whose resources and hooks are managed. */
  constructor(options: ClientOptions | LookupClient) {
    this.http = options instanceof LookupClient ? options : new LookupClient(options)
  }

  /** `POST /api/resources`: watch a domain (and its subdomains), an IP or a CIDR network. */
  addResource(resource: ResourceRequest, call?: CallOptions): Promise<Resource> {
    return this.call('POST', '/api/resources', resource, 201, ResourceSchema, call)
  }

  /** `GET /api/resources`: the key's watched resources, oldest first (every page, following the `link` headers). */
  resources(call?: CallOptions): Promise<Resource[]> {
    return this.allPages<Resource>('/api/resources', Resources, call)
  }

  /** `DELETE /api/resources/:id`. */
  async removeResource(id: string, call?: CallOptions): Promise<void> {
    await this.call('DELETE', `/api/resources/${segment(id)}`, undefined, 'any-2xx', undefined, call)
  }

  /** `POST /api/hooks`: the created hook, with its secret (shown only in this answer). */
  addHook(hook: HookRequest, call?: CallOptions): Promise<CreatedHook> {
    return this.call('POST', '/api/hooks', hook, 201, CreatedHook, call)
  }

  /** `GET /api/hooks`: the key's hooks, oldest first, without secrets (every page, following the `link` headers). */
  hooks(call?: CallOptions): Promise<Hook[]> {
    return this.allPages<Hook>('/api/hooks', Hooks, call)
  }

  /** `POST /api/hooks/:id/enable`: makes a disabled hook active again. */
  enableHook(id: string, call?: CallOptions): Promise<Hook> {
    return this.call('POST', `/api/hooks/${segment(id)}/enable`, undefined, 200, HookSchema, call)
  }

  /** `GET /api/hooks/:id`. */
  hook(id: string, call?: CallOptions): Promise<Hook> {
    return this.call('GET', `/api/hooks/${segment(id)}`, undefined, 200, HookSchema, call)
  }

  /** `DELETE /api/hooks/:id` (its deliveries go with it). */
  async removeHook(id: string, call?: CallOptions): Promise<void> {
    await this.call('DELETE', `/api/hooks/${segment(id)}`, undefined, 'any-2xx', undefined, call)
  }

  /** `POST /api/hooks/:id/test`: queue one sample event to the hook; resolves with the delivery when the server returns one. */
  async testHook(id: string, call?: CallOptions): Promise<Delivery | undefined> {
    const body = await this.call('POST', `/api/hooks/${segment(id)}/test`, undefined, 'any-2xx', undefined, call)
    return body as Delivery | undefined
  }

  /** `GET /api/hooks/:id/deliveries[?status=…]`: oldest first. */
  deliveries(id: string, status?: DeliveryStatus, call?: CallOptions): Promise<Delivery[]> {
    const query = status === undefined ? '' : `?status=${status}`
    return this.call('GET', `/api/hooks/${segment(id)}/deliveries${query}`, undefined, 200, Deliveries, call)
  }

  /** `POST /api/hooks/:id/deliveries/:delivery/retry`: re-send one failed delivery. */
  retryDelivery(id: string, deliveryId: string, call?: CallOptions): Promise<RetryResult> {
    return this.call('POST', `/api/hooks/${segment(id)}/deliveries/${segment(deliveryId)}/retry`, undefined, 'any-2xx', RetryResultSchema, call)
  }

  /** `POST /api/hooks/:id/retry-failed`: re-send every failed delivery of the hook. */
  retryFailed(id: string, call?: CallOptions): Promise<RetryResult> {
    return this.call('POST', `/api/hooks/${segment(id)}/retry-failed`, undefined, 'any-2xx', RetryResultSchema, call)
  }

  /** `POST /admin/events` (our extension) with the admin token: `jsonl` is one event document per line. */
  async ingest(adminToken: string, jsonl: string, call: CallOptions = {}): Promise<IngestSummary> {
    const path = '/admin/events'
    const response = await this.http.request('POST', path, { text: jsonl, headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/x-ndjson' } }, { ...call, apiKey: null })
    const body = expectStatus(response, 'POST', path, 200)
    if (!isIngestSummary(body)) throw new ClientError('invalid_response', `POST ${path}: the answer is not {accepted, duplicates, rejected}`, { response })
    return body
  }

  /**
   * `DELETE /admin/events?tag=TAG` (our extension) with the admin token: deletes the events
   * carrying the tag; resolves with how many. A server without the route answers 404 or 405
   * (a HookApiError with that status).
   */
  async deleteTagged(adminToken: string, tag: string, call: CallOptions = {}): Promise<number> {
    const path = `/admin/events?tag=${encodeURIComponent(tag)}`
    const response = await this.http.request('DELETE', path, { headers: { authorization: `Bearer ${adminToken}` } }, { ...call, apiKey: null })
    const body = expectStatus(response, 'DELETE', path, 200) as { deleted?: unknown } | undefined
    if (typeof body?.deleted !== 'number') throw new ClientError('invalid_response', `DELETE ${path}: the answer is not {deleted}`, { response })
    return body.deleted
  }

  /** A list route's items, page after page while a `link: <…>; rel="next"` names one (at most 1000 pages). */
  private async allPages<T>(path: string, schema: TSchema, call?: CallOptions): Promise<T[]> {
    const items: T[] = []
    let next: string | null = path
    for (let page = 0; next !== null && page < 1000; page++) {
      const response = await this.http.request('GET', next, undefined, call)
      items.push(...this.checked<T[]>(response, 'GET', next, 200, schema))
      next = nextPage(response.headers.link, path)
    }
    return items
  }

  private async call<T>(method: Method, path: string, json: unknown, status: number | 'any-2xx', schema: TSchema | undefined, call?: CallOptions): Promise<T> {
    const response = await this.http.request(method, path, json === undefined ? undefined : { json }, call)
    return this.checked<T>(response, method, path, status, schema)
  }

  private checked<T>(response: RawResponse, method: Method, path: string, status: number | 'any-2xx', schema: TSchema | undefined): T {
    const body = expectStatus(response, method, path, status)
    if (schema !== undefined && !Value.Check(schema, body)) {
      const first = [...Value.Errors(schema, body)][0]
      const where = first ? `${first.instancePath || '(body)'}: ${first.message}` : 'does not match the schema'
      throw new ClientError('invalid_response', `${method} ${path}: ${where}`, { response })
    }
    return body as T
  }
}

/** The path of the next page from a `link` header, when it names one on the same list route. */
function nextPage(link: string | undefined, route: string): string | null {
  const target = link === undefined ? undefined : /<([^>]+)>\s*;\s*rel="?next"?/.exec(link)?.[1]
  if (target === undefined) return null
  let path = target
  if (!target.startsWith('/')) {
    try {
      const url = new URL(target)
      path = url.pathname + url.search
    } catch {
      return null
    }
  }
  return path.startsWith(`${route}?`) ? path : null
}

/** The parsed body of an answer with the expected status (or any 2xx); throws otherwise. */
function expectStatus(response: RawResponse, method: Method, path: string, status: number | 'any-2xx'): unknown {
  const ok = status === 'any-2xx' ? response.status >= 200 && response.status < 300 : response.status === status
  if (!ok) throw new HookApiError(`${method} ${path}: ${response.status} ${response.statusText}${errorText(response.body, response.statusText)}`, response)
  if (response.body === '') return undefined
  try {
    return JSON.parse(response.body)
  } catch {
    throw new ClientError('bad_body', `${method} ${path}: the ${response.status} body is not JSON`, { response })
  }
}

function parseErrorBody(text: string): { title: string; description: string } | undefined {
  try {
    const doc = JSON.parse(text) as Record<string, unknown>
    if (typeof doc.title === 'string' && typeof doc.description === 'string') return { title: doc.title, description: doc.description }
  } catch {
    // not JSON: the status line stands in
  }
  return undefined
}

function isIngestSummary(body: unknown): body is IngestSummary {
  const b = body as IngestSummary | null
  return typeof b === 'object' && b !== null && typeof b.accepted === 'number' && typeof b.duplicates === 'number' && Array.isArray(b.rejected)
}
