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

  it('keeps JSON errors for API clients (400, 405, 406) and 404 for / without a browser', async () => {
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
    // A method the route does not take is a JSON 405 naming the ones it does, even for a browser.
    expect([post.status, post.headers['content-type'], post.headers.allow]).toEqual([405, 'application/json', 'GET, HEAD'])
  })

  it('gives a browser the page, marked as varying by accept, with a policy that forbids scripts', async () => {
    for (const path of [`/host/${HOST}`, `/domain/${DOMAIN}`, '/']) {
      const answer = await page(path)
      expect(answer.status, path).toBe(200)
      expect(html(answer)).toMatch(/^<!DOCTYPE html>\n<html lang="en">/)
      expect(answer.headers.vary).toBe('accept, accept-encoding')
      expect(answer.headers['content-security-policy']).toContain("default-src 'none'")
      // Scripts from the site's own files only: no inline script, no eval.
      expect(answer.headers['content-security-policy']).toContain("script-src 'self';")
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
    // An address is never broken: no <wbr /> inside, and class addr (white-space: nowrap).
    expect(text).toContain('<a class="mono addr" href="/host/2001%3Adb8%3A%3A8">2001:db8::8</a>')
    expect(text).not.toContain('notweb.test')
    // One events table, one tbody per host name.
    expect(text.match(/<table /g)).toHaveLength(2)
    const groups = [...text.matchAll(/<tbody class="group" id="g\d+">\n<tr class="group"><th colspan="9" scope="rowgroup"><span class="name"><a href="\/domain\/([^"]+)">/g)].map((m) => m[1])
    expect(groups).toEqual(['api.web.test', 'deep.api.web.test', 'www.web.test'])
  })

  it('shows each protocol object present as a small labelled table, members in the schema order', async () => {
    const text = html(await page(`/host/${HOST}`))
    const tables = [...text.matchAll(/<table class="proto" id="proto-\d+-(\w+)">\n<caption><strong>([^<]+)<\/strong> on port (\d+)/g)].map((m) => `${m[1]} ${m[2]} ${m[3]}`)
    expect(tables).toEqual(['mongodb MongoDB 27017', 'ssh SSH 22'])
    const mongo = text.slice(text.indexOf('-mongodb">'), text.indexOf('</table>', text.indexOf('-mongodb">')))
    const rows = [...mongo.matchAll(/<tr><th scope="row">([^<]+)<\/th><td>([^<]*)<\/td><\/tr>/g)].map((m) => `${m[1]}=${m[2]}`)
    expect(rows).toEqual(['Version=4.4.29', 'Databases=admin, customers, local', 'Authentication required=no', 'Wire version=9'])
    const ssh = text.slice(text.indexOf('-ssh">'), text.indexOf('</table>', text.indexOf('-ssh">')))
    expect([...ssh.matchAll(/<th scope="row">([^<]+)<\/th>/g)].map((m) => m[1])).toEqual(['Version', 'Banner', 'Key type', 'Key exchange algorithms', 'Host key algorithms', 'Authentication methods'])
    // A host whose events have none: no section.
    expect(html(await page('/host/198.51.100.8'))).not.toContain('id="protocols"')
  })

  it('names the host names of a host page, each linking to its domain page, and writes times with their zone', async () => {
    const text = html(await page(`/host/${HOST}`))
    expect(text).toContain('<dt>Host names</dt><dd><a href="/domain/api.web.test">api.<wbr />web.<wbr />test</a>, <a href="/domain/www.web.test">www.<wbr />web.<wbr />test</a></dd>')
    expect(text).toContain('<time datetime="2024-01-11T12:00:00Z" title="2024-01-11T12:00:00Z"><span class="nw">2024-01-11</span> <span class="nw">12:00 UTC</span></time>')
    const times = [...text.matchAll(/<time [^>]*>(.*?)<\/time>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ''))
    expect(times.length).toBeGreaterThan(10)
    for (const t of times) expect(t).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/)
  })

  it('shows the index: a labelled search box and the stored leaks by severity', async () => {
    const text = html(await page('/'))
    expect(text).toContain('<label for="q">IP, domain, URL or query</label>')
    const rows = [...text.matchAll(/<tr><th scope="row"><a class="sev-link" href="\/search\?q=([^&]*)&amp;scope=leak"><span class="sev sev-(\w+)">([^<]*)<\/span><span class="vh"> leaks<\/span><\/a><\/th><td class="num"><a href="\/search\?q=\1&amp;scope=leak">(\d+)<span class="vh">[^<]*<\/span><\/a><\/td><\/tr>/g)].map(
      (m) => `${m[3]}=${m[4]} ${decodeURIComponent(m[1]!)}`,
    )
    expect(rows).toEqual(['critical=1 +severity:critical', 'high=1 +severity:high', 'medium=1 +severity:medium', 'low=1 +severity:low', 'info=0 +severity:info', 'none=1 -severity:*'])
  })

  it('sends the search box to the page of an address, ip:port, a URL or a name', async () => {
    const to = async (q: string) => (await page(`/search?q=${encodeURIComponent(q)}`)).headers.location
    expect(await to(' 2001:DB8:0::8 ')).toBe('/host/2001%3Adb8%3A%3A8')
    expect(await to('WWW.Web.Test.')).toBe('/domain/www.web.test')
    expect(await to('198.51.100.7:443')).toBe('/host/198.51.100.7?port=443')
    expect(await to('[2001:db8::8]:443')).toBe('/host/2001%3Adb8%3A%3A8?port=443')
    expect(await to('https://www.web.test:8443/admin?x=1')).toBe('/domain/www.web.test')
    expect(await to('http://198.51.100.7:8080/')).toBe('/host/198.51.100.7?port=8080')
    expect(await to('http://[2001:db8::8]/')).toBe('/host/2001%3Adb8%3A%3A8')
  })

  it('answers a query with a results page: newest first, each row linking to its host page; a bad query shows where, kept in the box', async () => {
    const results = await page(`/search?q=${encodeURIComponent('+port:443')}&scope=service`)
    expect(results.status).toBe(200)
    const text = html(results)
    expect(text).toContain('value="+port:443"')
    expect(text).toContain('<option value="service" selected="selected">')
    const rows = [...text.matchAll(/<tr class="event" data-key="[0-9a-f]{16}">[\s\S]*?<a class="mono addr" href="\/host\/([^"]+)">/g)].map((m) => decodeURIComponent(m[1]!))
    expect(rows).toEqual([HOST, '2001:db8::8', '198.51.100.8'])
    const leaks = html(await page('/search?q=%3Cb%3Enope'))
    expect(leaks).toContain('Nothing stored matches this query.')
    expect(leaks).toContain('value="&lt;b&gt;nope"')
    const bad = await page(`/search?q=${encodeURIComponent('+countri:DE <i>')}&scope=leak`)
    expect(bad.status).toBe(400)
    const error = html(bad)
    expect(error).toContain('bad query at position 2 (`countri`): there is no field `countri`; did you mean `country`?')
    expect(error).toContain('Position 2: <code>+<mark>countri</mark>:DE &lt;i&gt;</code>')
    expect(error).toContain('value="+countri:DE &lt;i&gt;"')
    const scoped = html(await page(`/search?q=${encodeURIComponent('severity:high')}&scope=service`))
    expect(scoped).toContain('is a field of leaks')
    for (const [path, message] of [
      ['/search?q=x&scope=all', 'scope=&quot;all&quot; is not a scope; use leak or service.'],
      ['/search?q=x&page=500', 'page=&quot;500&quot; is not a page: pages run from 0 to 499 (20 results each).'],
      ['/search?q=x&sort=last', 'The query parameter &quot;sort&quot; is not known here'],
      ['/search?q=%20', 'Type an IP address, a domain name, a URL, ip:port, or a query'],
    ]) {
      const answer = await page(path!)
      expect(answer.status, path).toBe(400)
      expect(html(answer), path).toContain(message)
    }
  })

  it('says how many match and draws the facets as links that narrow the query (a required group around optional terms); a count too costly leaves them out', async () => {
    const text = html(await page(`/search?q=${encodeURIComponent('+port:443')}&scope=service`))
    expect(text).toContain('<p id="total"><strong>3</strong> services match.</p>')
    const links = [...text.matchAll(/<li><a href="\/search\?q=([^&]*)&amp;scope=service">/g)].map((m) => decodeURIComponent(m[1]!))
    expect(links).toEqual(['+port:443 +port:443', '+port:443 +plugin:HttpPlugin', '+port:443 +country:NL', '+port:443 +host:="api.web.test"', '+port:443 +host:="www.web.test"'])
    // Every link's query parses, and finds exactly as many as its count says (the store's count).
    const counts = [...text.matchAll(/<span class="count">(\d+)</g)].map((m) => Number(m[1]))
    for (const [i, q] of links.entries()) expect(html(await page(`/search?q=${encodeURIComponent(q)}&scope=service`)), q).toContain(`<p id="total"><strong>${counts[i]}</strong>`)
    const optional = html(await page(`/search?q=${encodeURIComponent('API Home')}&scope=service`))
    expect(optional).toContain(`href="/search?q=${encodeURIComponent('+(API Home) +port:443')}&amp;scope=service"`)
    const everything = html(await page('/search?q=*&scope=leak'))
    expect(everything).toContain(`href="/search?q=${encodeURIComponent('+severity:critical')}&amp;scope=leak"`)
    // A store that evaluates 25 events at most: a page of a word query (21 read) is drawn, its count (40) is too costly.
    const small = new MemoryStore({ scanLimit: 25 })
    await small.ingest(Array.from({ length: 40 }, (_, i) => makeEvent({ ip: `192.0.2.${i + 1}`, summary: 'alpha' })))
    const tight = await serveForTest({ store: small, config: unlimitedConfig() })
    const uncounted = html(await getRaw(tight.url, '/search?q=alpha&scope=service', { accept: BROWSER_ACCEPT }))
    expect(uncounted).toContain('<p class="muted" id="total">Not counted: this query is too broad to count in one request')
    expect(uncounted).not.toContain('class="facets"')
  })

  it('pages results by 20, newest first, without overlap', async () => {
    const many = new MemoryStore()
    await many.ingest(Array.from({ length: 45 }, (_, i) => makeEvent({ event_type: 'leak', event_source: 'PagePlugin', ip: `192.0.2.${i + 1}`, port: '80', time: `2024-05-${String(1 + (i % 28)).padStart(2, '0')}T${String(i % 24).padStart(2, '0')}:00:00Z` })))
    const running = await serveForTest({ store: many, config: unlimitedConfig() })
    const seen: string[] = []
    for (const n of [0, 1, 2]) {
      const text = html(await getRaw(running.url, `/search?q=plugin:PagePlugin&scope=leak&page=${n}`, { accept: BROWSER_ACCEPT }))
      const times = [...text.matchAll(/<time datetime="([^"]+)"/g)].map((m) => m[1]!)
      expect(times.length).toBe(n < 2 ? 20 : 5)
      expect([...times].sort().reverse()).toEqual(times)
      seen.push(...[...text.matchAll(/href="\/host\/([^"]+)"/g)].map((m) => m[1]!))
      expect(text.includes('rel="next"'), `page ${n}`).toBe(n < 2)
      expect(text.includes('rel="prev"'), `page ${n}`).toBe(n > 0)
    }
    expect(new Set(seen).size).toBe(45)
  })
})

describe('errors as pages', () => {
  const cases: [string, number, string][] = [
    ['/host/1.2.3', 400, '&quot;1.2.3&quot; is not an IPv4 or IPv6 address.'],
    ['/host/%E0%A4%A', 400, 'has malformed percent-encoding'],
    ['/host/', 400, 'The path needs an IP address'],
    ['/domain/a..b', 400, '&quot;a..b&quot; is not a domain name'],
    [`/host/${HOST}?sort=nope`, 400, 'sort=&quot;nope&quot; is not a column of this page; use one of port, severity, finding, plugin, fingerprint, first, last, days.'],
    [`/host/${HOST}?sort=ip`, 400, 'is not a column of this page'],
    [`/host/${HOST}?dir=up`, 400, 'dir=&quot;up&quot; is not a direction; use asc or desc.'],
    [`/host/${HOST}?x=%3Cscript%3E`, 400, 'The query parameter &quot;x&quot; is not known here'],
    [`/host/${HOST}?event=0000000000000000`, 400, 'The query parameter &quot;event&quot; is not known here; this page takes sort, dir, port.'],
    [`/domain/${DOMAIN}?port=80`, 400, 'The query parameter &quot;port&quot; is not known here; this page takes sort, dir.'],
    [`/host/${HOST}?port=http`, 400, 'port=&quot;http&quot; is not a port number'],
    [`/host/${HOST}?port=65536`, 400, 'port=&quot;65536&quot; is not a port number'],
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

  it('gives pages a budget of their own (30 at once, then 2 a second), apart from the API rate limit, and caps subdomains', async () => {
    let now = 0
    const running = await serveForTest({ store, config: limited, limiter: { now: () => now } })
    const first = await getRaw(running.url, `/domain/${DOMAIN}`, { accept: BROWSER_ACCEPT })
    expect(first.status).toBe(200)
    // The note and the table agree: one row drawn, two more names counted, their events below.
    const text = html(first)
    expect(text).toContain("This table lists 1 of the 3 names below web.test, the most recently seen: the anonymous plan's subdomain list holds at most 1.")
    expect(text.slice(text.indexOf('id="subdomains-table"'), text.indexOf('</table>')).match(/<tr>\n<th scope="row">/g)).toHaveLength(1)
    // The API's own limit (1 at once) is untouched by the page.
    expect((await getRaw(running.url, `/host/${HOST}`)).status).toBe(200)
    expect((await getRaw(running.url, `/host/${HOST}`)).status).toBe(429)
    // Pages go on: 29 more (30 in all), whatever the API bucket says; the 31st waits half a second.
    for (let i = 0; i < 29; i++) expect((await getRaw(running.url, `/host/${HOST}?sort=days`, { accept: BROWSER_ACCEPT })).status, `page ${i + 2}`).toBe(200)
    const limitedPage = await getRaw(running.url, `/search?q=${encodeURIComponent('+plugin:"Kept <q>"')}&scope=service`, { accept: BROWSER_ACCEPT })
    expect([limitedPage.status, limitedPage.statusMessage, limitedPage.headers['x-limited-for']]).toEqual([429, 'Rate-limited', '500ms'])
    const body = html(limitedPage)
    expect(body).toContain('Too many pages at once: wait 500ms before the next page (pages allow 30 at once, then 2 a second; sorting a table is free).')
    // The 429 page keeps what was typed, and the scope.
    expect(body).toContain('value="+plugin:&quot;Kept &lt;q&gt;&quot;"')
    expect(body).toContain('<option value="service" selected="selected">')
    expect(html(await getRaw(running.url, '/host/1.2.3', { accept: BROWSER_ACCEPT }))).toContain('value="1.2.3"')
    now = 500
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

  it('keeps a host with 50 findings under 100 KB in all (page, stylesheet and script, as a browser fetches them), and under 100 KB decoded', async () => {
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
    const js = await getRaw(running.url, /<script src="([^"]+)"/.exec(decoded)![1]!, gz)
    expect([js.status, js.headers['content-type'], js.headers['cache-control']]).toEqual([200, 'text/javascript; charset=utf-8', 'public, max-age=31536000, immutable'])
    const total = pageAnswer.body.length + css.body.length + js.body.length
    console.log(`host with 50 findings: page ${pageAnswer.body.length} B gzip (${Buffer.byteLength(decoded)} B decoded), stylesheet ${css.body.length} B gzip, script ${js.body.length} B gzip; total ${total} B`)
    expect(total).toBeLessThan(100 * 1024)
    // Decoded too: the events' full JSON is behind each row's link, not in the page (it was 245 KB with it).
    expect(Buffer.byteLength(decoded)).toBeLessThanOrEqual(100 * 1024)
  })
})

