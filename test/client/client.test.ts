/** The lookup client over real HTTP on 127.0.0.1: headers, 429 waits, back-off, caps, timeouts, validation. */
import { afterEach, describe, expect, it } from 'vitest'
import { ClientError, LookupClient } from '../../src/client/index.js'
import { emptyEvent } from '../../src/schema/index.js'
import { json, limited, type Scripted, scripted, silent } from './scripted-server.js'

const OK = { Services: null, Leaks: null }
let server: Scripted | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const client = (options: Partial<ConstructorParameters<typeof LookupClient>[0]> = {}) =>
  new LookupClient({ baseUrl: server!.url, rate: 'auto', ...options })

const failure = async (promise: Promise<unknown>): Promise<ClientError> => {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(ClientError)
    return error as ClientError
  }
  throw new Error('expected the call to fail')
}

describe('LookupClient', () => {
  it('sends accept and api-key, and returns the typed result', async () => {
    const event = { ...emptyEvent(), event_type: 'service', ip: '2001:db8::1' }
    server = await scripted([json(200, { Services: [event], Leaks: null })])
    const result = await client({ apiKey: 'secret-key' }).lookupHost('2001:db8::1')
    expect(result.Services?.[0]?.ip).toBe('2001:db8::1')
    expect(server.seen[0]!.url).toBe('/host/2001:db8::1')
    expect(server.seen[0]!.headers.accept).toBe('application/json')
    expect(server.seen[0]!.headers['api-key']).toBe('secret-key')
  })

  it('sends no api-key header without a key', async () => {
    server = await scripted([json(200, [])])
    expect(await client().subdomains('example.com')).toEqual([])
    expect(server.seen[0]!.headers['api-key']).toBeUndefined()
    expect(server.seen[0]!.url).toBe('/api/subdomains/example.com')
  })

  it('after 429 twice then 200, succeeds having waited the advertised durations', async () => {
    server = await scripted([limited('150ms'), limited('0.25s'), json(200, OK)])
    const waits: number[] = []
    const result = await client({ onWait: (ms, source) => waits.push(source === 'x-limited-for' ? ms : -1) }).lookupDomain('example.com')
    expect(result).toEqual(OK)
    expect(waits).toEqual([150, 250])
    const [a, b, c] = server.seen.map((s) => s.at) as [number, number, number]
    // Timers may fire a hair early against another clock: allow 2 ms, never more.
    expect(b - a).toBeGreaterThanOrEqual(148)
    expect(c - b).toBeGreaterThanOrEqual(248)
  })

  it('reads µs as Go sends it (UTF-8 bytes, which fetch hands over as Latin-1), with either micro sign', async () => {
    // node:http writes each character of a header string as one byte, so these are the bytes Go sends.
    const utf8Bytes = (text: string) => Buffer.from(text, 'utf8').toString('latin1')
    server = await scripted([limited(utf8Bytes('40000\u00b5s')), limited(utf8Bytes('30000\u03bcs')), limited('20000\u00b5s'), json(200, OK)])
    const waits: [number, string][] = []
    expect(await client({ onWait: (ms, source) => waits.push([ms, source]) }).lookupDomain('example.com')).toEqual(OK)
    expect(waits).toEqual([
      [40, 'x-limited-for'],
      [30, 'x-limited-for'],
      [20, 'x-limited-for'],
    ])
  })

  it('backs off when x-limited-for is missing or unreadable, and never throws on it', async () => {
    server = await scripted([limited(undefined), limited('2'), limited('-1s'), limited('soon'), json(200, OK)])
    const waits: [number, string][] = []
    const c = client({ maxRetries: 5, backoff: { initialMs: 10, maxMs: 25 }, onWait: (ms, source) => waits.push([ms, source]) })
    expect(await c.lookupHost('192.0.2.1')).toEqual(OK)
    expect(waits).toEqual([[10, 'backoff'], [20, 'backoff'], [25, 'backoff'], [25, 'backoff']])
  })

  it('gives up after the retry cap with a rate_limited error', async () => {
    server = await scripted([limited('1ms')])
    const error = await failure(client({ maxRetries: 2 }).lookupHost('192.0.2.1'))
    expect(error.kind).toBe('rate_limited')
    expect(error.status).toBe(429)
    expect(server.seen).toHaveLength(3)
  })

  it('does not wait longer than the total-wait cap', async () => {
    server = await scripted([limited('2h')])
    const waits: number[] = []
    const error = await failure(client({ maxWaitMs: 5000, onWait: (ms) => waits.push(ms) }).lookupHost('192.0.2.1'))
    expect(error.kind).toBe('rate_limited')
    expect(error.message).toContain('cap')
    expect(server.seen).toHaveLength(1)
    expect(waits).toEqual([]) // it refused to start a 2 h wait, rather than sleeping any of it
  })

  it('returns the 429 itself when retry is off', async () => {
    server = await scripted([limited('1s')])
    const response = await client().get('/host/192.0.2.1', { retry: false })
    expect(response).toMatchObject({ status: 429, statusText: 'Rate-limited', headers: { 'x-limited-for': '1s' } })
  })

  it('reports a 200 that does not match the schema as invalid_response with the report', async () => {
    server = await scripted([json(200, { services: [], Leaks: null })])
    const error = await failure(client().lookupHost('192.0.2.1'))
    expect(error.kind).toBe('invalid_response')
    expect(error.details.report?.errors).toContainEqual(expect.objectContaining({ code: 'missing_member', pointer: '/Services' }))
  })

  it('reports a non-JSON 200 as bad_body and other statuses as http', async () => {
    server = await scripted([
      (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>'),
      json(404, { title: 'Not Found', description: 'Host not found' }),
    ])
    expect((await failure(client().lookupHost('192.0.2.1'))).kind).toBe('bad_body')
    const error = await failure(client().lookupHost('192.0.2.1'))
    expect(error).toMatchObject({ kind: 'http', status: 404 })
    expect(error.message).toContain('Host not found')
  })

  it('times out an attempt that gets no answer', async () => {
    server = await scripted([silent])
    const error = await failure(client({ timeoutMs: 100 }).lookupHost('192.0.2.1'))
    expect(error.kind).toBe('timeout')
  })

  it('stops at once when the caller aborts, also during a 429 wait', async () => {
    server = await scripted([limited('10s')])
    const controller = new AbortController()
    const call = client({ maxWaitMs: 60_000 }).lookupHost('192.0.2.1', { signal: controller.signal })
    setTimeout(() => controller.abort(), 50)
    expect((await failure(call)).kind).toBe('aborted')
  })

  it('reports an unreachable server as a network error', async () => {
    server = await scripted([json(200, OK)])
    const url = server.url
    await server.close()
    server = undefined
    const error = await failure(new LookupClient({ baseUrl: url, rate: 'auto' }).lookupHost('192.0.2.1'))
    expect(error.kind).toBe('network')
  })

  it('paces requests to the given rate', async () => {
    server = await scripted([json(200, OK)])
    const c = client({ rate: 20 })
    // A first call sets up fetch and the connection, whose cost (tens of ms on a loaded machine)
    // would otherwise delay only the first paced arrival and shorten the span judged below.
    await c.lookupHost('192.0.2.0')
    const before = performance.now()
    await Promise.all([c.lookupHost('192.0.2.1'), c.lookupHost('192.0.2.2'), c.lookupHost('192.0.2.3')])
    const at = server.seen.slice(1).map((s) => s.at).sort((x, y) => x - y)
    // Starts are 50 ms apart, the first no earlier than `before`: the third cannot arrive before
    // `before` + 100 ms, however late the machine runs them (a lower bound only: no wall-clock
    // speed assumed; arrivals compared with each other could be squeezed by a late first one).
    expect(at).toHaveLength(3)
    expect(at[2]! - before).toBeGreaterThanOrEqual(100)
  })
})
