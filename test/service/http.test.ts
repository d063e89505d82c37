/** The routes over real HTTP on 127.0.0.1: every route, status and plan, shapes checked against schema/*.schema.json. */
import { readFileSync } from 'node:fs'
import { connect } from 'node:net'
import { beforeAll, describe, expect, it } from 'vitest'
import { normalize, serializeEvent } from '../../src/normalize/index.js'
import type { Event } from '../../src/schema/index.js'
import { canonicalIp, corpusFiles, demoEvents, loadBundled, MemoryStore, type RunningService } from '../../src/service/index.js'
import { type Answer, KEYS, makeEvent, request, schemaErrors, serveForTest, unlimitedConfig } from './support.js'

/** Every bundled document in canonical form: the oracle the lookups are compared with. */
const bundled: Event[] = [...corpusFiles().map((f) => JSON.parse(readFileSync(f, 'utf8'))), ...demoEvents()].map((doc) => {
  const r = normalize(doc, { fingerprint: 'missing' })
  if (!r.ok) throw new Error(JSON.stringify(r.errors))
  return r.event
}).filter((e) => e.event_type === 'service' || e.event_type === 'leak') // the lookups serve no other type
const manySubdomains = Array.from({ length: 150 }, (_, i) => makeEvent({ host: `h${i}.many.test`, ip: `198.18.0.${i}`, time: '2024-01-01T00:00:00Z' }))

let service: RunningService
beforeAll(async () => {
  const store = new MemoryStore()
  await loadBundled(store)
  await store.ingest(manySubdomains)
  service = await serveForTest({ store, config: unlimitedConfig() })
})

const get = (path: string, headers: Record<string, string> = {}) => request(service.url, path, { headers })

/** Every answer is JSON with content-type application/json; errors validate as `error`. */
function json(answer: Answer): unknown {
  expect(answer.headers['content-type']).toBe('application/json')
  expect(answer.json, answer.text).not.toBeUndefined()
  if (answer.status !== 200) expect(schemaErrors('error', answer.json)).toEqual([])
  return answer.json
}

/** Lookup answers as sorted canonical JSON texts, checked against the lookup-result schema. */
function lookup(answer: Answer): { services: string[] | null; leaks: string[] | null } {
  expect(answer.status, answer.text).toBe(200)
  const body = json(answer) as { Services: Event[] | null; Leaks: Event[] | null }
  expect(schemaErrors('lookup-result', body)).toEqual([])
  expect(Object.keys(body)).toEqual(['Services', 'Leaks'])
  const texts = (list: Event[] | null) => (list === null ? null : list.map((e) => serializeEvent(e)).sort())
  return { services: texts(body.Services), leaks: texts(body.Leaks) }
}

/** What a lookup should hold, computed by scanning the bundled documents. */
function expected(match: (e: Event) => boolean) {
  const found = bundled.filter(match)
  const pick = (leak: boolean) => {
    const list = found.filter((e) => e.event_type === (leak ? 'leak' : 'service')).map(serializeEvent)
    return list.length === 0 ? null : [...new Set(list)].sort()
  }
  return { services: pick(false), leaks: pick(true) }
}

const underDomain = (domain: string) => (e: Event) => {
  const host = e.host.toLowerCase().replace(/\.$/, '')
  return host === domain || host.endsWith('.' + domain)
}

describe('GET /host/:ip', () => {
  it('returns exactly the events of that IP, split by event_type', async () => {
    for (const ip of ['192.0.2.10', '198.51.100.23', '2001:db8::10', '203.0.113.66', '2001:db8:cd::1']) {
      const got = lookup(await get(`/host/${ip}`))
      expect(got, ip).toEqual(expected((e) => canonicalIp(e.ip) === ip))
      expect(got.services ?? got.leaks, ip).not.toBeNull()
    }
  })

  it('matches other spellings of the address', async () => {
    const plain = lookup(await get('/host/192.0.2.10'))
    expect(lookup(await get('/host/::ffff:192.0.2.10'))).toEqual(plain)
    expect(lookup(await get('/host/2001:0DB8:0:0:0:0:0:10'))).toEqual(lookup(await get('/host/2001:db8::10')))
    expect(lookup(await get('/host/2001%3Adb8%3A%3A10'))).toEqual(lookup(await get('/host/2001:db8::10')))
  })

  it('answers 200 with nulls for an unknown address', async () => {
    const answer = await get('/host/192.0.2.254')
    expect(answer.status).toBe(200)
    expect(json(answer)).toEqual({ Services: null, Leaks: null })
  })

  it('answers 400 for a malformed address', async () => {
    for (const bad of ['192.0.2', '999.1.1.1', 'example.com', '%zz', '1%2F2', 'fe80::1%25eth0', '']) {
      const answer = await get(`/host/${bad}`)
      expect(answer.status, bad).toBe(400)
      expect(json(answer)).toMatchObject({ title: 'Bad Request' })
    }
  })
})

describe('GET /domain/:domain', () => {
  it("returns the domain's own events and its subdomains', never look-alikes", async () => {
    for (const domain of ['example.com', 'notexample.com', 'example.org', 'ci.example.com', 'example.net']) {
      expect(lookup(await get(`/domain/${domain}`)), domain).toEqual(expected(underDomain(domain)))
    }
    const hosts = (l: ReturnType<typeof lookup>) => [...(l.services ?? []), ...(l.leaks ?? [])].map((t) => (JSON.parse(t) as Event).host)
    const exampleHosts = hosts(lookup(await get('/domain/example.com')))
    expect(exampleHosts).toContain('grafana.internal.example.com')
    expect(exampleHosts.some((h) => h.endsWith('notexample.com'))).toBe(false)
  })

  it('ignores case and a trailing dot', async () => {
    expect(lookup(await get('/domain/EXAMPLE.com.'))).toEqual(lookup(await get('/domain/example.com')))
  })

  it('answers 200 with nulls for an unknown domain, 400 for a malformed one', async () => {
    expect(json(await get('/domain/unknown.test'))).toEqual({ Services: null, Leaks: null })
    for (const bad of ['..', 'a..b', '-x.test', '192.0.2.1', '%00', 'a%20b.test', 'x'.repeat(300)]) {
      const answer = await get(`/domain/${bad}`)
      expect(answer.status, bad).toBe(400)
      json(answer)
    }
  })
})

describe('GET /api/subdomains/:domain', () => {
  it('lists subdomains with distinct_ips and last_seen, validated by the subdomains schema', async () => {
    const answer = await get('/api/subdomains/example.com', { 'api-key': KEYS.pro })
    expect(answer.status).toBe(200)
    const entries = json(answer) as { subdomain: string; distinct_ips: number; last_seen: string }[]
    expect(schemaErrors('subdomains', entries)).toEqual([])
    const names = entries.map((e) => e.subdomain)
    const expectedNames = [...new Set(bundled.filter(underDomain('example.com')).map((e) => e.host.toLowerCase()))].filter((h) => h !== 'example.com')
    expect(names.sort()).toEqual(expectedNames.sort())
    expect(entries.find((e) => e.subdomain === 'cdn.example.com')).toMatchObject({ distinct_ips: 3 })
    for (const e of entries) expect(e.last_seen).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
  })

  it('caps the answer per plan: anonymous 10, registered 100, pro all', async () => {
    const count = async (headers: Record<string, string>) => (json(await get('/api/subdomains/many.test', headers)) as unknown[]).length
    expect(await count({})).toBe(10)
    expect(await count({ 'api-key': KEYS.registered })).toBe(100)
    expect(await count({ 'api-key': KEYS.pro })).toBe(150)
  })

  it('answers [] for an unknown domain and 400 for a malformed one', async () => {
    expect(json(await get('/api/subdomains/unknown.test'))).toEqual([])
    expect((await get('/api/subdomains/a..b')).status).toBe(400)
  })
})

describe('keys', () => {
  it('serves every route on the anonymous plan without a key and on the key plans with one', async () => {
    for (const path of ['/host/192.0.2.10', '/domain/example.com', '/api/subdomains/example.com']) {
      for (const headers of [{}, { 'api-key': KEYS.registered }, { 'api-key': KEYS.pro }] as Record<string, string>[]) {
        expect((await get(path, headers)).status, `${path} ${JSON.stringify(headers)}`).toBe(200)
      }
    }
  })

  it('answers 401 for an unknown non-empty key on every route', async () => {
    for (const path of ['/host/192.0.2.10', '/domain/example.com', '/api/subdomains/example.com']) {
      for (const key of ['wrong-key-123', KEYS.pro + 'x']) {
        const answer = await get(path, { 'api-key': key })
        expect(answer.status).toBe(401)
        expect(json(answer)).toMatchObject({ title: 'Unauthorized' })
        expect(answer.text).not.toContain(key)
      }
    }
  })

  it('answers an empty api-key header exactly as no header: the anonymous plan', async () => {
    // many.test has more subdomains than the anonymous cap: a different plan would show.
    for (const path of ['/host/192.0.2.10', '/domain/example.com', '/api/subdomains/many.test']) {
      const none = await get(path)
      const empty = await get(path, { 'api-key': '' })
      expect(empty.status, path).toBe(200)
      expect(empty.text, path).toBe(none.text)
    }
  })
})

describe('everything else', () => {
  it('answers 404 JSON for unknown paths and extra segments', async () => {
    const cases: [string, string][] = [
      ['GET', '/'],
      ['GET', '/hosts/192.0.2.10'],
      ['GET', '/host/192.0.2.10/extra'],
      ['GET', '/host'],
      ['GET', '/api/subdomains'],
      ['POST', '/hosts/192.0.2.10'],
    ]
    for (const [method, path] of cases) {
      const answer = await request(service.url, path, { method })
      expect(answer.status, `${method} ${path}`).toBe(404)
      expect(json(answer)).toMatchObject({ title: 'Not Found' })
    }
  })

  it('answers 405 JSON with allow for a method a route does not take (RFC 9110: the path exists)', async () => {
    const cases: [string, string, string][] = [
      ['POST', '/host/192.0.2.10', 'GET, HEAD'],
      ['DELETE', '/domain/example.com', 'GET, HEAD'],
      ['PUT', '/api/subdomains/example.com', 'GET, HEAD'],
      ['GET', '/admin/events', 'POST, DELETE'],
      ['PATCH', '/search?scope=leak', 'GET, HEAD'],
      ['PUT', '/api/plugins/HttpPlugin', 'GET, HEAD'],
      ['PUT', '/bulk/service', 'GET, HEAD'],
      ['POST', '/ws/leak', 'GET, HEAD'],
      ['PUT', '/', 'GET, HEAD'],
    ]
    for (const [method, path, allow] of cases) {
      const answer = await request(service.url, path, { method })
      expect([answer.status, answer.headers.allow], `${method} ${path}`).toEqual([405, allow])
      expect(answer.headers['content-type']).toBe('application/json')
      expect(json(answer)).toMatchObject({ title: 'Method Not Allowed', description: expect.stringContaining(`it takes ${allow}`) })
    }
  })

  it('ignores the query string', async () => {
    expect(lookup(await get('/host/192.0.2.10?page=2'))).toEqual(lookup(await get('/host/192.0.2.10')))
  })

  it('answers HEAD like GET without a body', async () => {
    const answer = await request(service.url, '/host/192.0.2.10', { method: 'HEAD' })
    expect(answer.status).toBe(200)
    expect(answer.headers['content-type']).toBe('application/json')
    expect(answer.text).toBe('')
  })

  it('answers 406 when accept rules JSON out, and accepts the usual accept headers', async () => {
    // `text/html` alone now gets the web view's page (test/service/web/); other types are refused.
    const refused = await get('/host/192.0.2.10', { accept: 'image/png' })
    expect(refused.status).toBe(406)
    json(refused)
    for (const accept of ['application/json', '*/*', 'application/*', 'text/html, application/json;q=0.9', 'application/problem+json']) {
      expect((await get('/host/192.0.2.10', { accept })).status, accept).toBe(200)
    }
    // q=0 means "not this"; the most specific range decides (RFC 9110, 12.5.1).
    for (const accept of ['application/json;q=0', 'application/*;q=0, image/png']) {
      expect((await get('/host/192.0.2.10', { accept })).status, accept).toBe(406)
    }
    // Anything but JSON: the web view's page is what is left.
    const page = await get('/host/192.0.2.10', { accept: 'application/json;q=0, */*' })
    expect([page.status, String(page.headers['content-type']).split(';')[0]]).toEqual([200, 'text/html'])
  })

  it('answers JSON even when the request is not valid HTTP', async () => {
    const url = new URL(service.url)
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => socket.write('BLAH /\x01 HTTP/9\r\n\r\n'))
      const chunks: Buffer[] = []
      socket.on('data', (c) => chunks.push(c))
      socket.on('end', () => resolve(Buffer.concat(chunks).toString()))
      socket.on('error', reject)
    })
    expect(text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/)
    expect(text).toContain('content-type: application/json')
    expect(schemaErrors('error', JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)))).toEqual([])
  })
})
