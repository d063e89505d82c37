/**
 * The web view in a real browser: Debian's chromium driven by playwright-core (headless, no
 * sandbox, no background networking, a fresh profile in a temporary directory removed after).
 * Loads the pages of a service with known events and checks the rows, sorting every column in
 * the page (no request, the server's order), the days-open values, times with their zone, the
 * links between host and domain pages, the domain page's one events table (shared column
 * widths, addresses on one line), the subdomain note against the table, the search box (URL,
 * ip:port, address, name, query; results with links; errors with the position, the query kept),
 * browsing without meeting the API's rate limit, the protocol tables, the index page's latest
 * findings and plugins, that a `<script>` in a summary does not run (with the page's CSP
 * bypassed, so escaping alone is what stops it), the layout at 360 px, and an axe-core scan with
 * no serious or critical violation. Writes screenshots of each page; with L9KIT_SCREENSHOTS=1
 * into docs/img/ (the committed ones), else into the temporary directory.
 *
 * Without chromium the tests are skipped with a message saying so, except under CI=true, where
 * a missing browser is a failure.
 */
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BrowserContext, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemoryStore, packageRoot, parseConfig, type RunningService } from '../../../src/service/index.js'
import { serveForTest, unlimitedConfig } from '../support.js'
import { DOMAIN, FINDINGS, fixtureDocs, HOST, LONG_DOMAIN, longValueDocs, recentDocs, XSS_SUMMARY } from './fixture.js'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const HAVE_BROWSER = existsSync(CHROMIUM)
const IN_CI = process.env.CI === 'true'
/** A store holding `docs`, all accepted. */
async function loaded(docs: unknown[]): Promise<MemoryStore> {
  const store = new MemoryStore()
  expect((await store.ingest(docs)).rejected).toEqual([])
  return store
}
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js')
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage']

/** The little of the DOM these tests touch in page callbacks (the project compiles without the DOM library). */
interface El {
  children: Iterable<El>
  nextElementSibling: El | null
  innerText: string
  textContent: string | null
  className: string
  href: string
  querySelector(selector: string): El | null
  querySelectorAll(selector: string): Iterable<El>
  getAttribute(name: string): string | null
}
interface AxeResult {
  violations: { id: string; impact: string; nodes: { target: string[] }[] }[]
}
declare const window: { __xss?: number; axe: { run(context: unknown): Promise<AxeResult> } }
interface Box {
  scrollWidth: number
  clientWidth: number
}
declare const document: { documentElement: Box; querySelector(selector: string): unknown; querySelectorAll(selector: string): Iterable<Box & { id: string; getAttribute(name: string): string | null }> }
interface Rect {
  x: number
  width: number
}
declare function getComputedStyle(el: unknown): { whiteSpace: string }
/** A table as the 360 px test reads it. */
interface Cells {
  querySelectorAll(selector: string): Iterable<{ textContent: string | null; children: { [i: number]: { textContent: string | null; getBoundingClientRect(): { left: number; right: number } } }; getBoundingClientRect(): { left: number; right: number } }> & { length: number }
}

if (!HAVE_BROWSER && !IN_CI) {
  console.warn(`browser tests skipped: no chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH); under CI=true this fails`)
}

describe.runIf(!HAVE_BROWSER && IN_CI)('web view in a browser (CI)', () => {
  it('needs chromium', () => {
    expect.fail(`no chromium at ${CHROMIUM}: CI must install it (apt-get install chromium) or set CHROMIUM_PATH`)
  })
})

describe.runIf(HAVE_BROWSER)('web view in a browser', { timeout: 180_000 }, () => {
  let service: RunningService
  let profile: string
  let shots: string
  let context: BrowserContext
  let page: Page

  beforeAll(async () => {
    const store = new MemoryStore()
    const report = await store.ingest(fixtureDocs())
    expect(report.rejected).toEqual([])
    service = await serveForTest({ store, config: unlimitedConfig() })
    profile = await mkdtemp(join(tmpdir(), 'l9kit-chromium-'))
    shots = process.env.L9KIT_SCREENSHOTS === '1' ? join(packageRoot(), 'docs', 'img') : join(profile, 'shots')
    await mkdir(shots, { recursive: true })
    context = await chromium.launchPersistentContext(join(profile, 'user-data'), {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
      // Scripts are forbidden by the page's CSP; bypassing it lets axe in and makes the
      // `<script>` test prove that escaping, not the policy, keeps summaries inert.
      bypassCSP: true,
      viewport: { width: 1280, height: 900 },
      timeout: 120_000,
    })
    // Generous: a page action on a busy machine can take seconds (a bound for a hang, not a measure).
    context.setDefaultTimeout(60_000)
    page = context.pages()[0] ?? (await context.newPage())
  }, 180_000)

  afterAll(async () => {
    await context?.close()
    if (profile) await rm(profile, { recursive: true, force: true })
  })

  const open = async (path: string, base = service.url) => {
    const answer = await page.goto(base + path)
    expect(answer?.status(), path).toBe(200)
  }

  /** Counts the requests the page makes from now until the returned function is called. */
  const countRequests = () => {
    const seen: string[] = []
    const on = (request: { url(): string }) => void seen.push(request.url())
    page.on('request', on)
    return () => {
      page.off('request', on)
      return seen
    }
  }

  /** The order of the event rows of a table, by key, and that each is followed by its "full event" row. */
  const keyOrder = (table: string) =>
    page.$$eval(`${table} tbody tr.event`, (rows) =>
      rows.map((tr) => {
        const key = (tr as El).getAttribute('data-key')!
        const next = (tr as El).nextElementSibling
        return next?.className === 'more' && next.querySelector('a')!.href.endsWith(key) ? key : `${key} without its link row`
      }),
    )

  /** The same order as the server draws it for `query` (the page without its script). */
  const serverOrder = async (path: string, table: string): Promise<string[]> => {
    const whole = await (await page.request.get(service.url + path, { headers: { accept: 'text/html' } })).text()
    const from = whole.indexOf(`id="${table}"`)
    const text = whole.slice(from, whole.indexOf('</table>', from))
    return [...text.matchAll(/<tr class="event" id="e-[0-9a-f]{16}" data-key="([0-9a-f]{16})"/g)].map((m) => m[1]!)
  }

  /** The findings table, one object per row, as the browser shows it. */
  const findingRows = () =>
    page.$$eval('#findings-table tbody tr.event', (rows) =>
      rows.map((tr) => {
        const cells = [...(tr as El).children]
        return {
          port: Number(cells[0]!.innerText.split('/')[0]),
          severity: cells[1]!.innerText.trim().toLowerCase(),
          rank: ['critical', 'high', 'medium', 'low', 'info', 'other', 'none'].indexOf(cells[1]!.querySelector('.sev')!.className.replace('sev sev-', '')),
          // What the server sorts by: the leak type, then the summary.
          finding: `${cells[2]!.querySelector('strong')?.textContent ?? ''}\n${cells[2]!.querySelector('.summary')!.textContent!}`,
          summary: cells[2]!.querySelector('.summary')!.textContent!,
          plugin: cells[3]!.innerText,
          fingerprint: cells[4]!.querySelector('code')!.getAttribute('title')!,
          first: cells[5]!.querySelector('time')!.getAttribute('datetime')!,
          last: cells[6]!.querySelector('time')!.getAttribute('datetime')!,
          days: Number(cells[7]!.innerText),
        }
      }),
    )

  it('shows every finding of the host with its severity word, first and last seen, and days open', async () => {
    await open(`/host/${HOST}`)
    expect(await page.locator('h1').innerText()).toBe('Host 198.51.100.7')
    const rows = await findingRows()
    // Default order: most severe first, a finding without severity last.
    expect(rows.map((r) => r.severity)).toEqual(['critical', 'high', 'medium', 'low', 'none'])
    const bySource = new Map(rows.map((r) => [r.plugin, r]))
    for (const f of FINDINGS) {
      const row = bySource.get(f.event.event_source)!
      expect({ first: row.first, last: row.last, days: row.days, fingerprint: row.fingerprint }).toEqual({
        first: f.first,
        last: f.last,
        days: f.days,
        fingerprint: f.event.event_fingerprint,
      })
    }
    expect(await page.locator('#services-table tbody tr.event').count()).toBe(2)
    expect(await page.locator('#services-table tbody tr.event').first().innerText()).toContain('22')
    // Every time drawn says its zone in the text, not only in a hover.
    const times = await page.locator('main time').allInnerTexts()
    expect(times.length).toBeGreaterThan(10)
    for (const t of times) expect(t).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/)
    // The protocol objects, each a small labelled table.
    expect(await page.locator('table.proto caption').allInnerTexts()).toEqual([
      'MongoDB on port 27017/mongodb (finding MongoOpenPlugin), last seen 2024-01-01 00:00 UTC',
      'SSH on port 22/ssh, last seen 2024-03-01 08:05 UTC',
    ])
    expect(await page.locator('table.proto').first().locator('tr').allInnerTexts()).toEqual(['Version\t4.4.29', 'Databases\tadmin, customers, local', 'Authentication required\tno', 'Wire version\t9'])
    await page.screenshot({ path: join(shots, 'web-host.png'), fullPage: true })
  })

  it('sorts by each column, both ways, in the page: no request, aria-sort, the address updated, the server\'s order', async () => {
    await open(`/host/${HOST}`)
    const keys = await page.$$eval('#findings-table thead th a', (links) => links.map((a) => new URL((a as El).href).searchParams.get('sort')!))
    expect(keys).toEqual(['port', 'severity', 'finding', 'plugin', 'fingerprint', 'first', 'last', 'days'])
    type Row = Awaited<ReturnType<typeof findingRows>>[number]
    const value: Record<string, (r: Row) => string | number> = {
      severity: (r) => -r.rank,
      finding: (r) => r.finding,
      plugin: (r) => r.plugin,
      port: (r) => r.port,
      fingerprint: (r) => r.fingerprint,
      first: (r) => Date.parse(r.first),
      last: (r) => Date.parse(r.last),
      days: (r) => r.days,
    }
    const stop = countRequests()
    const orders: [string, string[]][] = []
    for (const [index, key] of keys.entries()) {
      for (const dir of ['asc', 'desc']) {
        // Clicking a header sorts ascending; clicking the sorted header again turns it round.
        await page.locator('#findings-table thead th a').nth(index).click()
        expect(page.url()).toBe(`${service.url}/host/${HOST}?sort=${key}&dir=${dir}`)
        const heads = page.locator('#findings-table thead th')
        expect(await heads.nth(index).getAttribute('aria-sort')).toBe(dir === 'asc' ? 'ascending' : 'descending')
        expect(await page.locator('#findings-table thead th[aria-sort]').count()).toBe(1)
        expect(await heads.nth(index).locator('a').getAttribute('href')).toBe(`/host/${HOST}?sort=${key}&dir=${dir === 'asc' ? 'desc' : 'asc'}`)
        expect(await page.locator('#findings-caption .order').innerText()).toBe(await heads.nth(index).locator('a').getAttribute(`data-${dir}`))
        const got = (await findingRows()).map(value[key]!)
        const sorted = [...got].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
        expect(got, `${key} ${dir}`).toEqual(dir === 'asc' ? sorted : sorted.reverse())
        orders.push([`?sort=${key}&dir=${dir}`, await keyOrder('#findings-table')])
      }
    }
    // Sixteen sorts, no request at all: nothing spent from any rate limit.
    expect(stop()).toEqual([])
    // Exactly the order the server draws for the same address (what a reload shows).
    for (const [query, order] of orders) expect(order, query).toEqual(await serverOrder(`/host/${HOST}${query}`, 'findings-table'))
    // Days open ascending, ties newest first: the high finding (0 days, March) before the unrated one (0 days, February).
    await open(`/host/${HOST}?sort=days&dir=asc`)
    expect((await findingRows()).map((r) => `${r.severity}:${r.days}`)).toEqual(['high:0', 'none:0', 'medium:7', 'critical:10', 'low:30'])
  })

  it('sorts the domain page\'s one events table within each host name, in the page', async () => {
    await open(`/domain/${DOMAIN}`)
    const stop = countRequests()
    for (const key of ['days', 'ip', 'last']) {
      await page.locator('#events-table thead th a[data-sort="' + key + '"]').click()
      await page.locator('#events-table thead th a[data-sort="' + key + '"]').click()
      expect(page.url()).toBe(`${service.url}/domain/${DOMAIN}?sort=${key}&dir=desc`)
      expect(await keyOrder('#events-table'), key).toEqual(await serverOrder(`/domain/${DOMAIN}?sort=${key}&dir=desc`, 'events-table'))
      // Each group's heading stays first in its tbody.
      expect(await page.$$eval('#events-table tbody', (bodies) => bodies.map((b) => (b as El).querySelector('tr')!.className))).toEqual(['group', 'group', 'group'])
    }
    expect(stop().filter((url) => !url.startsWith(service.url + '/raw/'))).toEqual([])
  })

  it('shows a <script> in a summary as text and never runs it', async () => {
    await open(`/host/${HOST}`)
    const row = (await findingRows()).find((r) => r.plugin === 'GitConfigPlugin')!
    expect(row.summary).toBe(XSS_SUMMARY)
    expect(await page.evaluate(() => window.__xss)).toBeUndefined()
    expect(await page.locator('main script, main img, main [onerror]').count()).toBe(0)
  })

  it('links each row to its full event, whose JSON is fetched only when the link is followed', async () => {
    await open(`/host/${HOST}`)
    expect(await page.locator('main pre, main details').count()).toBe(0)
    const link = page.locator('#findings-table tr.more a').first()
    expect(await link.innerText()).toMatch(/^Full event \(JSON\)/)
    const raw = await page.request.get(new URL((await link.getAttribute('href'))!, page.url()).href)
    expect(raw.headers()['content-type']).toBe('application/json')
    expect((await raw.json()).event_source).toBe('ElasticsearchOpenPlugin')
  })

  it('fits a domain page with long values in 1280 px: neither the page nor any table scrolls sideways', async () => {
    const store = new MemoryStore()
    expect((await store.ingest(longValueDocs())).rejected).toEqual([])
    const long = await serveForTest({ store, config: unlimitedConfig() })
    for (const [base, path, rows] of [
      [long.url, `/domain/${LONG_DOMAIN}`, 5],
      [service.url, `/domain/${DOMAIN}`, 10],
    ] as const) {
      await page.goto(base + path)
      expect(await page.locator('tr.event').count(), path).toBe(rows)
      const widths = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        regions: [...document.querySelectorAll('.scroll')].map((r) => `${r.getAttribute('aria-labelledby')}: ${r.scrollWidth - r.clientWidth}`),
      }))
      expect(widths.page, `${path} scrolls sideways`).toBeLessThanOrEqual(0)
      expect(widths.regions.length, path).toBeGreaterThan(1)
      expect(widths.regions.filter((r) => !r.endsWith(': 0')), `${path}: tables wider than their region`).toEqual([])
      if (path.includes(LONG_DOMAIN)) await page.screenshot({ path: join(shots, 'web-domain-long.png'), fullPage: true })
    }
  })

  it('shows the domain: subdomains, one events table grouped by host name with shared column widths, addresses on one line, links both ways', async () => {
    await open(`/domain/${DOMAIN}`)
    expect(await page.locator('#events-table tr.group .name').allInnerTexts()).toEqual(['api.web.test', 'deep.api.web.test', 'www.web.test'])
    // One table for the section: every group's columns line up.
    expect(await page.locator('section[aria-labelledby="by-host"] table').count()).toBe(1)
    const columns = await page.$$eval('#events-table tbody', (bodies) =>
      bodies.map((b) => [...(b as El).querySelector('tr.event')!.children].map((cell) => {
        const r = (cell as unknown as { getBoundingClientRect(): Rect }).getBoundingClientRect()
        return `${Math.round(r.x)}+${Math.round(r.width)}`
      })),
    )
    expect(columns.length).toBe(3)
    for (const group of columns) expect(group).toEqual(columns[0])
    const subdomains = await page.$$eval('#subdomains-table tbody tr', (rows) => rows.map((tr) => (tr as El).innerText.replace(/\s+/g, ' ').trim()))
    expect(subdomains).toEqual([
      'www.web.test 1 198.51.100.7 2024-03-03 03:03 UTC',
      'api.web.test 3 198.51.100.7, 198.51.100.8, 2001:db8::8 2024-02-21 12:00 UTC',
      'deep.api.web.test 1 198.51.100.9 2024-01-15 12:00 UTC',
    ])
    const days = await page.$$eval('#events-table tbody', (groups) =>
      groups.map((g) => [(g as El).querySelector('tr.group .name')!.textContent, [...(g as El).querySelectorAll('tr.event td.days')].map((td) => Number(td.textContent))]),
    )
    expect(days).toEqual([
      ['api.web.test', [0, 0, 0]],
      ['deep.api.web.test', [0]],
      ['www.web.test', [10, 0, 7, 30, 0, 0]],
    ])
    await page.screenshot({ path: join(shots, 'web-domain.png'), fullPage: true })
    // An address is never broken: one line box each, at 1280 and at 360 px.
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 800 })
      const lines = await page.$$eval('a.addr', (links) =>
        links.map((a) => `${(a as El).textContent} ${getComputedStyle(a).whiteSpace} ${(a as unknown as { getClientRects(): unknown[] }).getClientRects().length}`),
      )
      expect(lines.length).toBeGreaterThan(10)
      for (const line of lines) expect(line, `at ${width}px`).toMatch(/ nowrap 1$/)
    }
    await page.setViewportSize({ width: 1280, height: 900 })
    // Domain → host → domain: the address links to its host page, which names its host names, linking back.
    await page.locator('#subdomains-table a', { hasText: '2001:db8::8' }).click()
    await page.waitForURL('**/host/2001%3Adb8%3A%3A8')
    expect(await page.locator('h1').innerText()).toBe('Host 2001:db8::8')
    expect(await page.locator('.facts dd').first().innerText()).toBe('api.web.test')
    await page.locator('.facts a', { hasText: 'api.web.test' }).click()
    await page.waitForURL('**/domain/api.web.test')
    expect(await page.locator('h1').innerText()).toBe('Domain api.web.test')
    await open(`/host/${HOST}`)
    expect(await page.locator('.facts dd').first().innerText()).toBe('api.web.test, www.web.test')
    await page.goto(`${service.url}/domain/${DOMAIN}`)
    await page.locator('#subdomains-table a', { hasText: 'deep.api.web.test' }).click()
    expect(await page.locator('h1').innerText()).toBe('Domain deep.api.web.test')
  })

  it('says how many subdomains the plan leaves out of the table, and the table and the events agree with it', async () => {
    const capped = await serveForTest({ store: await loaded(fixtureDocs()), config: parseConfig(JSON.stringify({ plans: { anonymous: { subdomains: 1, rate: null } } }), 'capped.json') })
    await open(`/domain/${DOMAIN}`, capped.url)
    expect(await page.locator('#subdomains-table tbody tr').count()).toBe(1)
    expect(await page.locator('#subdomains-note').innerText()).toBe(
      "This table lists 1 of the 3 names below web.test, the most recently seen: the anonymous plan's subdomain list holds at most 1. The events of all of them are under Events by host.",
    )
    expect(await page.locator('#events-table tr.group').count()).toBe(3)
    expect(await page.locator('p.lead').first().innerText()).toContain('3 subdomains')
  })

  it('understands the search box: a URL, ip:port, an address, a name, a query (results linked to host pages), and keeps a bad query with its position', async () => {
    const search = async (text: string, scope = 'leak') => {
      await page.getByLabel('IP, domain, URL or query').fill(text)
      await page.getByLabel('Search', { exact: true }).selectOption(scope)
      const loaded = page.waitForEvent('load')
      await page.getByRole('button', { name: 'Search' }).click()
      await loaded
    }
    await open('/')
    await search('https://WWW.web.test:8443/admin/?next=/')
    await page.waitForURL('**/domain/www.web.test')
    expect(await page.locator('#q').inputValue()).toBe('www.web.test')
    await search(`${HOST}:443`)
    await page.waitForURL(`**/host/${HOST}?port=443`)
    expect(await page.locator('#q').inputValue()).toBe(`${HOST}:443`)
    expect(await page.locator('main .note').first().innerText()).toBe(`Only events on port 443 are shown. Show every port of ${HOST}`)
    expect((await findingRows()).map((r) => r.port)).toEqual([443])
    // The facts still name every host name of the address.
    expect(await page.locator('.facts dd').first().innerText()).toBe('api.web.test, www.web.test')
    expect(await page.locator('#services-table tbody tr.event').count()).toBe(1)
    await page.screenshot({ path: join(shots, 'web-host-port.png'), fullPage: false })
    await page.getByRole('link', { name: `Show every port of ${HOST}` }).click()
    expect((await findingRows()).length).toBe(5)
    await search('[2001:db8::8]:443')
    await page.waitForURL('**/host/2001%3Adb8%3A%3A8?port=443')
    await search('198.51.100.9')
    await page.waitForURL('**/host/198.51.100.9')
    // A query: a results page, newest first, each row linking to its host page.
    await search('+port:443', 'service')
    expect(new URL(page.url()).pathname).toBe('/search')
    expect(await page.locator('h1').innerText()).toBe('Search services')
    expect(await page.locator('#q').inputValue()).toBe('+port:443')
    const rows = await page.$$eval('#results-table tbody tr.event', (trs) => trs.map((tr) => (tr as El).querySelector('a.addr')!.textContent))
    expect(rows).toEqual([HOST, '2001:db8::8', '198.51.100.8'])
    const times = await page.$$eval('#results-table time', (ts) => ts.map((t) => (t as El).getAttribute('datetime')!))
    expect([...times].sort().reverse()).toEqual(times)
    await page.screenshot({ path: join(shots, 'web-search.png'), fullPage: true })
    await page.locator('#results-table a.addr', { hasText: '198.51.100.8' }).click()
    await page.waitForURL('**/host/198.51.100.8')
    await search('+plugin:DotEnvPlugin')
    expect(await page.locator('#results-table tbody tr.event').count()).toBe(1)
    expect(await page.locator('#results-table .summary').innerText()).toBe('/.env readable: APP_KEY, DB_PASSWORD')
    // A bad query: 400, the message with its position, the term marked, the query kept in the box.
    await search('+plugin:DotEnvPlugin +countri:NL')
    expect(await page.locator('#query-error p').first().innerText()).toBe('bad query at position 23 (`countri`): there is no field `countri`; did you mean `country`?')
    expect(await page.locator('#query-error mark').innerText()).toBe('countri')
    expect(await page.locator('#q').inputValue()).toBe('+plugin:DotEnvPlugin +countri:NL')
    await page.screenshot({ path: join(shots, 'web-search-error.png'), fullPage: false })
    const answer = await page.goto(`${service.url}/search?q=${encodeURIComponent('+severity:high')}&scope=service`)
    expect(answer?.status()).toBe(400)
    expect(await page.locator('#query-error').innerText()).toContain('is a field of leaks')
    expect(await page.getByLabel('Search', { exact: true }).inputValue()).toBe('service')
  })

  it('lets a person browse without meeting the API rate limit: sorting is free, pages have a budget of their own, and a 429 page keeps the query', async () => {
    // The API allows 1 request at once here; the clock stands still, so nothing refills.
    const strict = parseConfig(JSON.stringify({ plans: { anonymous: { rate: 1, burst: 1, subdomains: 10 } } }), 'strict.json')
    const limited = await serveForTest({ store: await loaded(fixtureDocs()), config: strict, limiter: { now: () => 0 } })
    const statuses: number[] = []
    for (const path of ['/', `/host/${HOST}`, `/domain/${DOMAIN}`, `/host/${HOST}?port=443`, '/search?q=%2Bport%3A443&scope=service']) {
      statuses.push((await page.goto(limited.url + path))!.status())
    }
    await page.goto(`${limited.url}/host/${HOST}`)
    for (let i = 0; i < 6; i++) await page.locator('#findings-table thead th a').nth(i % 3).click()
    expect(statuses).toEqual([200, 200, 200, 200, 200])
    // The API's own bucket is still full: the pages spent none of it.
    expect((await page.request.get(`${limited.url}/host/${HOST}`, { headers: { accept: 'application/json' } })).status()).toBe(200)
    // 30 pages in the same instant pass (6 were made above); the 31st is a 429 page that keeps what was typed.
    for (let i = 6; i < 30; i++) expect((await page.goto(`${limited.url}/host/${HOST}`))!.status(), `page ${i + 1}`).toBe(200)
    const refused = await page.goto(`${limited.url}/search?q=${encodeURIComponent('+plugin:GitConfigPlugin -port:80')}&scope=leak`)
    expect(refused?.status()).toBe(429)
    expect(await page.locator('p.error').innerText()).toContain('Too many pages at once: wait 500ms before the next page')
    expect(await page.locator('#q').inputValue()).toBe('+plugin:GitConfigPlugin -port:80')
  })

  it('shows the index: the latest findings, the most-seen plugins (each a search), and the leaks by severity', async () => {
    await open('/')
    expect(await page.locator('#severity-table tbody tr th .sev').allInnerTexts()).toEqual(['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO', 'NONE'])
    expect((await page.locator('#severity-table tbody tr td').allInnerTexts()).map((t) => t.split(/\s/)[0])).toEqual(['1', '1', '1', '1', '0', '1'])
    // The fixture's events are from 2024: nothing in the last 7 days.
    expect(await page.locator('#plugins').locator('xpath=..').innerText()).toContain('No plugin has events from the last 7 days (6 plugins are known from older events).')
    expect(await page.locator('#latest-table tbody tr.event').count()).toBe(5)
    const recent = await serveForTest({ store: await loaded([...fixtureDocs(), ...recentDocs(Date.now())]), config: unlimitedConfig() })
    await open('/', recent.url)
    const plugins = await page.$$eval('#plugins-table tbody tr', (rows) => rows.map((tr) => (tr as El).innerText.replace(/\s+/g, ' ').trim()))
    expect(plugins.map((p) => p.split(' ').filter((_, i, all) => i === 0 || i === all.length - 1).join(' '))).toEqual(['GitConfigHttpPlugin 5', 'DotEnvPlugin 3', 'ElasticsearchOpenPlugin 2'])
    const latest = await page.$$eval('#latest-table time', (ts) => ts.map((t) => (t as El).getAttribute('datetime')!))
    expect(latest.length).toBe(10)
    expect([...latest].sort().reverse()).toEqual(latest)
    await page.screenshot({ path: join(shots, 'web-index.png'), fullPage: true })
    await page.locator('#plugins-table a', { hasText: 'DotEnvPlugin' }).click()
    await page.waitForURL('**/search?**')
    expect(await page.locator('#q').inputValue()).toBe('+plugin:"DotEnvPlugin"')
    expect(await page.locator('#results-table tbody tr.event').count()).toBe(4)
    await page.goto(`${recent.url}/`)
    await page.locator('#latest-table tbody tr.event').first().locator('a.addr').click()
    await page.waitForURL('**/host/203.0.113.*')
    expect(await page.locator('h1').innerText()).toMatch(/^Host 203\.0\.113\.\d+$/)
  })

  it('keeps Host and Port in view at 360 px in every results table: headers and every row, the table not scrolled', async () => {
    await page.setViewportSize({ width: 360, height: 800 })
    const tables: [string, string, string[]][] = [
      ['/search?q=%2Bport%3A443&scope=service', '#results-table', ['Host', 'Port']],
      ['/search?q=*&scope=leak', '#results-table', ['Host', 'Port']],
      ['/', '#latest-table', ['Host', 'Port']],
      [`/domain/${DOMAIN}`, '#events-table', ['IP', 'Port']],
      [`/host/${HOST}`, '#findings-table', ['Port']],
      [`/host/${HOST}`, '#services-table', ['Port']],
    ]
    for (const [path, table, names] of tables) {
      await page.goto(service.url + path)
      const cells = await page.evaluate(
        ([selector, wanted]) => {
          const t = document.querySelector(selector) as unknown as Cells
          const width = document.documentElement.clientWidth
          const heads = [...t.querySelectorAll('thead th')]
          const out: string[] = []
          for (const name of wanted) {
            const col = heads.findIndex((h) => (h.textContent ?? '').trim().startsWith(name))
            if (col === -1) out.push(`${name}: no such column`)
            for (const cell of [heads[col]!, ...[...t.querySelectorAll('tbody tr.event')].map((tr) => tr.children[col]!)]) {
              const r = cell.getBoundingClientRect()
              if (r.left < 0 || r.right > width) out.push(`${name} ${(cell.textContent ?? '').trim()}: ${Math.round(r.left)}–${Math.round(r.right)} of ${width}`)
            }
          }
          return { out, rows: t.querySelectorAll('tbody tr.event').length }
        },
        [table, names] as const,
      )
      expect(cells.rows, `${path} ${table}`).toBeGreaterThan(0)
      expect(cells.out, `${path} ${table}`).toEqual([])
    }
    await page.goto(`${service.url}/search?q=*&scope=leak`)
    await page.screenshot({ path: join(shots, 'web-search-360.png'), fullPage: false })
    await page.setViewportSize({ width: 1280, height: 900 })
  })

  it('shows a certificate’s issuer and validity on the host page: a self-signed one, and one expired when seen, said in words', async () => {
    const certificates = async (ip: string) => {
      await open(`/host/${encodeURIComponent(ip)}`)
      return page.$$eval('#services-table tbody tr.event', (rows) =>
        rows.map((tr) => {
          const cells = [...(tr as El).children]
          return { port: cells[0]!.innerText, certificate: cells[4]!.innerText, valid: cells[5]!.innerText, flags: [...(tr as El).querySelectorAll('.flag')].map((f) => f.textContent) }
        }),
      )
    }
    expect(await certificates(HOST)).toEqual([
      { port: '22', certificate: '', valid: '', flags: [] },
      { port: '443', certificate: 'www.web.test\nissued by R11', valid: 'from 2024-01-01 00:00 UTC\nto 2025-06-30 23:59 UTC', flags: [] },
    ])
    expect(await page.locator('#services-table thead th').allInnerTexts()).toEqual(['Port', 'Protocol', 'Software', 'TLS', 'Certificate', 'Valid', 'HTTP title', 'Last seen'])
    expect(await certificates('198.51.100.8')).toEqual([{ port: '443', certificate: 'api.web.test\nself-signed', valid: 'from 2024-01-31 00:00 UTC\nto 2025-01-31 00:00 UTC', flags: ['self-signed'] }])
    expect(await certificates('2001:db8::8')).toEqual([
      { port: '443', certificate: 'api.web.test\nissued by Example Issuing CA 2', valid: 'from 2023-11-01 00:00 UTC\nto 2024-02-01 00:00 UTC\nexpired when seen', flags: ['expired when seen'] },
    ])
    await page.screenshot({ path: join(shots, 'web-host-certificates.png'), fullPage: false })
  })

  it('links the index’s severity counts to their searches, and shows a search’s total and facets, each a link that narrows it', async () => {
    await open('/')
    const severities = await page.$$eval('#severity-table tbody tr', (rows) => rows.map((tr) => [(tr as El).querySelector('th .sev')!.textContent, Number((tr as El).querySelector('td a')!.textContent!.split(/\s/)[0])] as const))
    for (const [word, count] of severities) {
      await open('/')
      await page.locator('#severity-table tbody tr th a').nth(severities.findIndex(([w]) => w === word)).click()
      await page.waitForURL('**/search?**')
      expect(await page.locator('#q').inputValue(), word!).toBe(word === 'none' ? '-severity:*' : `+severity:${word}`)
      expect(await page.locator('#total').innerText(), word!).toBe(count === 0 ? '0 leaks match.' : `${count} ${count === 1 ? 'leak matches' : 'leaks match'}.`)
      expect(await page.locator('#results-table tbody tr.event').count(), word!).toBe(count)
      if (count > 0) expect(await page.locator('#results-table tbody tr.event .sev').allInnerTexts(), word!).toEqual(Array(count).fill(word!.toUpperCase()))
    }
    // A search of services: its total and facets, most first; no severity column, no badge in any row.
    await open('/search?q=%2Bport%3A443&scope=service')
    expect(await page.locator('#total').innerText()).toBe('3 services match.')
    const facets = await page.$$eval('nav.facets section', (sections) => sections.map((s) => `${(s as El).querySelector('h3')!.textContent}: ${[...(s as El).querySelectorAll('li')].map((li) => li.textContent!.replace(/\s+/g, ' ').replace(/ match(es)?$/, '')).join(', ')}`))
    expect(facets).toEqual(['Port: 443 3', 'Plugin: HttpPlugin 3', 'Country: NL 3', 'Host name: api.web.test 2, www.web.test 1'])
    expect(await page.locator('#results-table thead th').allInnerTexts()).toEqual(['Host', 'Port', 'Service', 'Plugin', 'Last seen'])
    expect(await page.locator('#results-table .sev').count()).toBe(0)
    await page.screenshot({ path: join(shots, 'web-search.png'), fullPage: true })
    await page.locator('nav.facets a', { hasText: 'api.web.test' }).click()
    await page.waitForURL('**/search?**')
    expect(await page.locator('#q').inputValue()).toBe('+port:443 +host:="api.web.test"')
    expect(await page.locator('#total').innerText()).toBe('2 services match.')
    expect(await page.$$eval('#results-table tbody tr.event a.addr', (as) => as.map((a) => (a as El).textContent))).toEqual(['2001:db8::8', '198.51.100.8'])
    // The domain page's one table holds services too: theirs is a dash, never a badge; the event cell says "Service".
    await open(`/domain/${DOMAIN}`)
    const kinds = await page.$$eval('#events-table tbody tr.event', (rows) => rows.map((tr) => [[...(tr as El).children].length, (tr as El).querySelector('.sev') === null ? (tr as El).querySelector('.kind')?.textContent ?? '?' : 'badge']))
    expect(kinds.filter(([, k]) => k === 'Service').length).toBe(5)
    expect(kinds.filter(([, k]) => k === 'badge').length).toBe(5)
    expect(kinds.filter(([, k]) => k !== 'Service' && k !== 'badge')).toEqual([])
  })

  it('has no serious or critical accessibility violation (axe-core), and fits 360 px without sideways scrolling', async () => {
    const pages = ['/', `/host/${HOST}`, `/domain/${DOMAIN}`, '/host/1.2.3', `/host/${HOST}?port=443`, '/search?q=%2Bport%3A443&scope=service', '/search?q=%2Bcountri%3ANL']
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 800 })
      for (const path of pages) {
        await page.goto(service.url + path)
        await page.addScriptTag({ path: AXE })
        const violations = await page.evaluate(async () => {
          const result = await window.axe.run(document)
          return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }))
        })
        expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'), `${path} at ${width}px`).toEqual([])
        if (violations.length > 0) console.log(`axe, ${path} at ${width}px, minor or moderate:`, violations)
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
        expect(overflow, `${path} at ${width}px scrolls sideways`).toBeLessThanOrEqual(0)
      }
    }
    await page.goto(service.url + `/host/${HOST}`)
    await page.screenshot({ path: join(shots, 'web-host-360.png'), fullPage: false })
    await page.setViewportSize({ width: 1280, height: 900 })
  })
})

// The committed screenshots are refreshed by: L9KIT_SCREENSHOTS=1 npx vitest run test/service/web/browser.test.ts
