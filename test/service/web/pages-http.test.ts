/** The web view over real HTTP: negotiation (JSON byte for byte as before), pages, errors, limits, caching, weight. */
import { gunzipSync } from 'node:zlib'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { lookupBody, MemoryStore, parseConfig, type RunningService } from '../../../src/service/index.js'
import { makeEvent, serveForTest, unlimitedConfig } from '../support.js'
import { DOMAIN, fixtureDocs, HOST } from './fixture.js'
import { BROWSER_ACCEPT, getRaw } from './http-get.js'

let store: MemoryStore
let service: RunningService
beforeAll(async () => {
  store = new MemoryStore()
  const report = await store.ingest(fixtureDocs())
  expect(report.rejected).toEqual([])
  service = await serveForTest({ store, config: unlimitedConfig() })
})

const page = (path: string, extra: Record<string, string> = {}) => getRaw(service.url, path, { accept: BROWSER_ACCEPT, ...extra })
const html = (answer: { headers: Record<string, unknown>; body: Buffer }) => {
  expect(answer.headers['content-type']).toBe('text/html; charset=utf-8')
  return answer.body.toString('utf8')
}

describe('content negotiation', () => {
  const apiAccepts: (Record<string, string> | undefined)[] = [
    undefined,
    { accept: 'application/json' },
    { accept: '*/*' },
    { accept: 'application/json, text/plain, */*' },
    { accept: 'text/html, application/json' }, // a tie keeps JSON
    { accept: 'text/html;q=0.5, application/json' },
  ]

  it('answers API clients exactly the bytes the JSON lookup always answered', async () => {
    for (const [path, expected] of [
      [`/host/${HOST}`, lookupBody((await store.host(HOST))!)],
      [`/domain/${DOMAIN}`, lookupBody((await store.domain(DOMAIN))!)],
      ['/host/192.0.2.254', Buffer.from('{"Services":null,"Leaks":null}')],
    ] as const) {
      for (const headers of apiAccepts) {
        const answer = await getRaw(service.url, path, headers ?? {})
        expect(answer.status, `${path} ${JSON.stringify(headers)}`).toBe(200)
        expect(answer.headers['content-type']).toBe('application/json')
        expect(answer.headers['content-length']).toBe(String(expected.length))
        expect(answer.headers.vary).toBe('accept')
        expect(answer.body.equals(expected), `${path} ${JSON.stringify(headers)}`).toBe(true)
      }
    }
  })

  it('keeps JSON errors for API clients (400, 406) and 404 for / without a browser', async () => {
    const bad = await getRaw(service.url, '/host/1.2.3', { accept: 'application/json' })
    expect(bad.status).toBe(400)
    expect(JSON.parse(bad.body.toString())).toEqual({ title: 'Bad Request', description: '"1.2.3" is not an IPv4 or IPv6 address.' })
    const refused = await getRaw(service.url, '/host/1.2.3', { accept: 'image/png' })
    expect(refused.status).toBe(406)
    // A browser gets a page at the same address: errors vary by accept too.
    expect([bad.headers.vary, refused.headers.vary]).toEqual(['accept', 'accept'])
    const root = await getRaw(service.url, '/')
    expect([root.status, root.headers['content-type']]).toEqual([404, 'application/json'])
    const post = await getRaw(service.url, `/host/${HOST}`, { accept: BROWSER_ACCEPT }, 'POST')
    expect([post.status, post.headers['content-type']]).toEqual([404, 'application/json'])
  })

  it('gives a browser the page, marked as varying by accept, with a policy that forbids scripts', async () => {
    for (const path of [`/host/${HOST}`, `/domain/${DOMAIN}`, '/']) {
      const answer = await page(path)
      expect(answer.status, path).toBe(200)
      expect(html(answer)).toMatch(/^<!DOCTYPE html>\n<html lang="en">/)
      expect(answer.headers.vary).toBe('accept, accept-encoding')
      expect(answer.headers['content-security-policy']).toContain("default-src 'none'")
      expect(answer.headers['x-content-type-options']).toBe('nosniff')
    }
    expect(html(await getRaw(service.url, `/host/${HOST}`, { accept: 'text/html' }))).toContain('<h1>Host <span class="mono">198.51.100.7</span></h1>')
    const head = await page(`/host/${HOST}`, {}) // HEAD: same headers, no body
    const headOnly = await getRaw(service.url, `/host/${HOST}`, { accept: BROWSER_ACCEPT }, 'HEAD')
    expect(headOnly.status).toBe(200)
    expect(headOnly.body.length).toBe(0)
    expect(headOnly.headers['content-length']).toBe(head.headers['content-length'])
  })
})

describe('pages', () => {
  it('draws the host: facts, one row per finding and per service, each with a link to its full event (not the event itself)', async () => {
    const text = html(await page(`/host/${HOST}`))
    expect(text).toContain('<dt>Reverse name</dt><dd>mail.web.test</dd>')
    expect(text).toContain('<dd>Example Net B.V. · AS64500 · 198.51.100.0/24</dd>')
    expect(text).toContain('Amsterdam, North Holland, Netherlands <span class="muted">(52.37, 4.89)</span>')
    const findings = text.slice(text.indexOf('id="findings-table"'), text.indexOf('id="services"'))
    expect(findings.match(/<tr class="event"/g)).toHaveLength(5)
    expect(findings.match(/<tr class="more"><td colspan="8"><a href="\/raw\/host\/198\.51\.100\.7\/[0-9a-f]{16}">Full event \(JSON\)/g)).toHaveLength(5)
    // The JSON is fetched when a link is followed, never drawn in the page.
    expect(text).not.toContain('<pre')
    expect(text).not.toContain('event_fingerprint')
    const services = text.slice(text.indexOf('id="services-table"'))
    expect(services.match(/<tr class="event"/g)).toHaveLength(2)
    expect(services).toContain('<td>TLSv1.3</td>')
    expect(services).toContain('<td>Web Test &lt;b&gt;Home&lt;/b&gt;</td>')
  })

  it('serves the raw JSON of one event from its row link, byte for byte as stored, whatever the accept header', async () => {
    for (const [path, lookup] of [
      [`/host/${HOST}`, (await store.host(HOST))!],
      [`/domain/${DOMAIN}`, (await store.domain(DOMAIN))!],
    ] as const) {
      const text = html(await page(path))
      const links = [...text.matchAll(/<a href="(\/raw\/[^"]+)">Full event \(JSON\)/g)].map((m) => m[1]!)
      expect(links).toHaveLength(lookup.leaks.length + lookup.services.length)
      const stored = [...lookup.leaks, ...lookup.services].map((b) => Buffer.from(b).toString('utf8')).sort()
      const served: string[] = []
      for (const link of links) {
        const raw = await getRaw(service.url, link, link.length % 2 === 0 ? { accept: BROWSER_ACCEPT } : {})
        expect(raw.headers['content-type']).toBe('application/json')
        served.push(raw.body.toString('utf8'))
      }
      expect(served.sort()).toEqual(stored)
    }
    const missing = await getRaw(service.url, `/raw/host/${HOST}/0000000000000000`)
    expect([missing.status, JSON.parse(missing.body.toString()).title]).toEqual([404, 'Not Found'])
    expect((await page(`/raw/host/${HOST}/0000000000000000`)).headers['content-type']).toBe('text/html; charset=utf-8')
    expect((await getRaw(service.url, `/raw/host/${HOST}/zz`)).status).toBe(400)
    expect((await getRaw(service.url, '/raw/host/1.2.3/0000000000000000')).status).toBe(400)
  })

  it('draws the domain: its subdomains with their hosts, and its events grouped by host name', async () => {
    const text = html(await page(`/domain/${DOMAIN}`))
    expect(text).toContain('<a href="/domain/api.web.test">api.web.test</a>')
    // An IPv6 address may wrap after each colon (<wbr />), so a long one does not widen the table.
    expect(text).toContain('<a class="mono" href="/host/2001%3Adb8%3A%3A8">2001:<wbr />db8:<wbr />:<wbr />8</a>')
    expect(text).not.toContain('notweb.test')
    const groups = [...text.matchAll(/<h3 id="g\d+"><a href="\/domain\/([^"]+)">/g)].map((m) => m[1])
    expect(groups).toEqual(['api.web.test', 'deep.api.web.test', 'www.web.test'])
  })

  it('shows the index: a labelled search box and the stored leaks by severity', async () => {
    const text = html(await page('/'))
    expect(text).toContain('<label for="q">IP address or domain name</label>')
    const rows = [...text.matchAll(/<tr><th scope="row"><span class="sev sev-(\w+)">([^<]*)<\/span><\/th><td class="num">(\d+)<\/td><\/tr>/g)].map((m) => `${m[2]}=${m[3]}`)
    expect(rows).toEqual(['critical=1', 'high=1', 'medium=1', 'low=1', 'info=0', 'none=1'])
  })

  it('sends the search box to the page of an address or a name, and says why not otherwise', async () => {
    const to = async (q: string) => (await page(`/search?q=${encodeURIComponent(q)}`)).headers.location
    expect(await to(' 2001:DB8:0::8 ')).toBe('/host/2001%3Adb8%3A%3A8')
    expect(await to('WWW.Web.Test.')).toBe('/domain/www.web.test')
    const bad = await page('/search?q=%3Cb%3Enope')
    expect(bad.status).toBe(400)
    expect(html(bad)).toContain('&quot;&lt;b&gt;nope&quot; is neither an IPv4 or IPv6 address nor a domain name.')
  })
})

describe('errors as pages', () => {
  const cases: [string, number, string][] = [
    ['/host/1.2.3', 400, '&quot;1.2.3&quot; is not an IPv4 or IPv6 address.'],
    ['/host/%E0%A4%A', 400, 'has malformed percent-encoding'],
    ['/host/', 400, 'The path needs an IP address'],
    ['/domain/a..b', 400, '&quot;a..b&quot; is not a domain name'],
    [`/host/${HOST}?sort=nope`, 400, 'sort=&quot;nope&quot; is not a column of this page; use one of severity, finding, plugin, port, fingerprint, first, last, days.'],
    [`/host/${HOST}?sort=ip`, 400, 'is not a column of this page'],
    [`/host/${HOST}?dir=up`, 400, 'dir=&quot;up&quot; is not a direction; use asc or desc.'],
    [`/host/${HOST}?x=%3Cscript%3E`, 400, 'The query parameter &quot;x&quot; is not known here'],
    [`/host/${HOST}?event=0000000000000000`, 400, 'The query parameter &quot;event&quot; is not known here; pages take sort and dir.'],
  ]
  it.each(cases)('%s → %i page saying why', async (path, status, message) => {
    const answer = await page(path)
    expect(answer.status).toBe(status)
    const text = html(answer)
    expect(text).toContain(`<h1>${status} Bad Request</h1>`)
    expect(text).toContain(message)
  })
})

describe('path fuzzing, as a browser', () => {
  it('never answers 5xx; pages and their errors are HTML, raw events and their errors JSON', async () => {
    const segment = fc.oneof(
      fc.ipV4(),
      fc.ipV6(),
      fc.domain(),
      fc.string({ maxLength: 30 }),
      fc.constantFrom('', '%', '%zz', '%E0%A4%A', '..', '<script>', '%3Cscript%3E', 'web.test?sort=days&dir=desc', `${HOST}?sort=ip`, `${HOST}?a=%ZZ`),
    )
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/host/', '/domain/', `/raw/host/${HOST}/`, `/raw/domain/${DOMAIN}/`), segment, async (route, seg) => {
        // The segment stays one path segment (escaped); a query after it is sent as it is, with
        // only what Node refuses to send (such as a space) escaped.
        const at = seg.indexOf('?')
        const raw = at >= 0 && !route.startsWith('/raw/') ? encodeURIComponent(seg.slice(0, at)) + seg.slice(at).replace(/[^\x21-\x7e]/g, encodeURIComponent) : encodeURIComponent(seg)
        const answer = await page(route + raw)
        expect(answer.status, route + raw).toBeLessThan(500)
        expect(answer.headers['content-type'], route + raw).toBe(route.startsWith('/raw/') && answer.status === 200 ? 'application/json' : 'text/html; charset=utf-8')
      }),
      { numRuns: 150 },
    )
  })
})

describe('plans', () => {
  const limited = parseConfig(
    JSON.stringify({
      keys: [{ name: 'browser', key: 'browser-key-001', plan: 'pro' }],
      plans: { anonymous: { rate: 1, burst: 1, subdomains: 1 }, pro: { rate: null } },
    }),
    'limited.json',
  )

  it('limits pages on the anonymous plan with a 429 page, and caps its subdomains', async () => {
    let now = 0
    const running = await serveForTest({ store, config: limited, limiter: { now: () => now } })
    const first = await getRaw(running.url, `/domain/${DOMAIN}`, { accept: BROWSER_ACCEPT })
    expect(first.status).toBe(200)
    expect(html(first)).toContain('The anonymous plan shows at most 1 subdomains; 2 more are not shown.')
    const second = await getRaw(running.url, `/host/${HOST}`, { accept: BROWSER_ACCEPT })
    expect([second.status, second.statusMessage, second.headers['x-limited-for']]).toEqual([429, 'Rate-limited', '1s'])
    expect(html(second)).toContain('Rate limit of the anonymous plan reached: wait 1s before the next page.')
    now = 1000
    expect((await getRaw(running.url, '/', { accept: BROWSER_ACCEPT })).status).toBe(200)
  })

  it('uses the plan of the key web_key names (here pro: no limit, no cap)', async () => {
    const config = parseConfig(JSON.stringify({ ...JSON.parse(limitedText()), web_key: 'browser' }), 'web-key.json')
    expect(config.webKey).toBe('browser')
    const running = await serveForTest({ store, config, limiter: { now: () => 0 } })
    for (let i = 0; i < 3; i++) {
      const answer = await getRaw(running.url, `/domain/${DOMAIN}`, { accept: BROWSER_ACCEPT })
      expect(answer.status).toBe(200)
      expect(html(answer)).not.toContain('more are not shown')
    }
  })

  it('refuses a web_key that names no configured key', () => {
    expect(() => parseConfig(JSON.stringify({ keys: [], web_key: 'nobody' }), 'bad.json')).toThrow(
      "bad.json: /web_key: must name a key in /keys (got \"nobody\"; names: none)",
    )
  })

  function limitedText(): string {
    return JSON.stringify({
      keys: [{ name: 'browser', key: 'browser-key-001', plan: 'pro' }],
      plans: { anonymous: { rate: 1, burst: 1, subdomains: 1 }, pro: { rate: null } },
    })
  }
})

describe('weight and caching', () => {
  it('serves the stylesheet with a year of caching, a validator, and a link that changes with it', async () => {
    const text = html(await page('/'))
    const href = /<link rel="stylesheet" href="([^"]+)" \/>/.exec(text)![1]!
    expect(href).toMatch(/^\/static\/l9kit\.css\?v=[0-9a-f]{12}$/)
    const css = await getRaw(service.url, href, { accept: 'text/css,*/*;q=0.1' })
    expect(css.status).toBe(200)
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8')
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    const again = await getRaw(service.url, href, { 'if-none-match': css.headers.etag as string })
    expect([again.status, again.body.length]).toEqual([304, 0])
  })

  it('keeps a host with 50 findings under 100 KB in all (page and stylesheet, as a browser fetches them), and under 100 KB decoded', async () => {
    const big = new MemoryStore()
    // Banners that differ from each other (400 pseudo-random characters each), so compression has work to do.
    let seed = 7
    const noise = () => Array.from({ length: 400 }, () => ((seed = (seed * 1103515245 + 12345) % 2147483648), 'abcdefghijklmnopqrstuvwxyz0123456789 <>&"='[seed % 43])).join('')
    const banner = 'HTTP/1.1 200 OK\r\nServer: nginx\r\nContent-Type: text/html\r\n\r\n<html><title>Index of /backup</title>'
    await big.ingest(
      Array.from({ length: 50 }, (_, i) =>
        makeEvent({ event_type: 'leak', ip: '192.0.2.50', host: `n${i}.weight.test`, port: String(8000 + i), protocol: 'http', summary: `${banner} ${noise()}`, leak: { ...makeEvent({}).leak, severity: ['critical', 'high', 'medium', 'low', 'info'][i % 5]!, stage: 'open', type: 'exposed_directory' } }),
      ),
    )
    const running = await serveForTest({ store: big, config: unlimitedConfig() })
    const gz = { accept: BROWSER_ACCEPT, 'accept-encoding': 'gzip, deflate, br' }
    const pageAnswer = await getRaw(running.url, '/host/192.0.2.50', gz)
    expect(pageAnswer.headers['content-encoding']).toBe('gzip')
    const decoded = gunzipSync(pageAnswer.body).toString('utf8')
    expect(decoded.match(/<tr class="event"/g)).toHaveLength(50)
    const href = /<link rel="stylesheet" href="([^"]+)"/.exec(decoded)![1]!
    const css = await getRaw(running.url, href, gz)
    const total = pageAnswer.body.length + css.body.length
    console.log(`host with 50 findings: page ${pageAnswer.body.length} B gzip (${Buffer.byteLength(decoded)} B decoded), stylesheet ${css.body.length} B gzip; total ${total} B`)
    expect(total).toBeLessThan(100 * 1024)
    // Decoded too: the events' full JSON is behind each row's link, not in the page (it was 245 KB with it).
    expect(Buffer.byteLength(decoded)).toBeLessThanOrEqual(100 * 1024)
  })
})

