/**
 * No value from an event comes out of a page unescaped (property test): events whose every
 * string member is hostile (markup, quotes, entities, template syntax, control and astral
 * characters) are stored and drawn on the host, domain, index and error pages; each page must
 * then parse as well-formed XML with only the elements, attributes and class names the
 * templates write, links that stay on the site, a link to every event's JSON, and each event's
 * plugin name back as plain text (it is drawn cut into parts where a line may break).
 */
import fc from 'fast-check'
import { SaxesParser } from 'saxes'
import { describe, expect, it } from 'vitest'
import type { Event } from '../../../src/schema/index.js'
import { MemoryStore } from '../../../src/service/index.js'
import { domainView } from '../../../src/service/web/domain-view.js'
import { hostView } from '../../../src/service/web/host-view.js'
import { severityList } from '../../../src/service/http/pages.js'
import { renderDomain, renderError, renderHost, renderIndex, renderResults } from '../../../src/service/web/render.js'
import { resultRow } from '../../../src/service/web/results-view.js'
import { eventKey } from '../../../src/service/web/rows.js'
import { SCRIPT_HREF } from '../../../src/service/web/script.js'
import { parseQuery } from '../../../src/query/index.js'
import { DEFAULT_SORT, SORT_KEYS } from '../../../src/service/web/sort.js'
import { makeEvent } from '../support.js'

const ELEMENTS = new Set(
  'html head meta title link script body header a form label input select option button main nav h1 h2 h3 dl dt dd span section p div table caption thead tbody tr th td code mark time strong br wbr footer ul li'.split(' '),
)
const ATTRIBUTES = new Set(
  'lang charset name content rel href src defer class action method role for id type required placeholder autocomplete spellcheck aria-labelledby aria-label tabindex scope aria-sort aria-hidden colspan datetime title data-key data-r data-sort data-asc data-desc value selected'.split(' '),
)
const CLASSES = new Set(
  'top brand search vh mono facts muted note event events num days more summary sev sev-critical sev-high sev-medium sev-low sev-info sev-other sev-none scroll group ips lead big row error counts addr name arrow hint order proto protocols results query caret pages nw kind flag sev-link facets facet count cert validity'.split(' '),
)

const NASTY = [
  '<script>window.__xss=1</script>',
  '"><img src=x onerror=alert(1)>',
  "' onmouseover='alert(1)",
  '</textarea></pre><svg onload=alert(1)>',
  '&lt;already escaped&gt; &amp; &#60;',
  ']]><!-- --><![CDATA[x]]>',
  '<%= it.h %><%~ include("@layout") %>',
  '${process.exit()}',
  'javascript:alert(1)',
  '\u2028\u2029\u0000\u0007\r\n\t',
  '\ud800 lone \udfff',
  '😀 ü ﷺ \ufffe\uffff',
  '<a href="//evil.test">x</a>',
  'critical',
]
const hostile = fc.oneof(
  fc.constantFrom(...NASTY),
  fc.string({ unit: 'binary', maxLength: 16 }),
  fc.tuple(fc.constantFrom(...NASTY), fc.string({ maxLength: 8 }), fc.constantFrom(...NASTY)).map((p) => p.join('')),
)

const IP = '192.0.2.66'
const NAMES = ['evil.test', 'a.evil.test', 'b.a.evil.test']

const hostileEvent = fc
  .record({
    kind: fc.constantFrom('leak', 'service'),
    name: fc.constantFrom(...NAMES),
    port: fc.integer({ min: 0, max: 65535 }).map(String),
    s: fc.array(hostile, { minLength: 26, maxLength: 26 }),
  })
  .map(({ kind, name, port, s }) => {
    const e = makeEvent({ event_type: kind, ip: IP, host: name, port, event_source: s[0]!, summary: s[1]!, reverse: s[2]!, protocol: s[3]!, tags: [s[4]!] })
    e.leak = { ...e.leak, stage: s[5]!, type: s[6]!, severity: s[7]! }
    e.service.software = { ...e.service.software, name: s[8]!, version: s[9]! }
    e.ssl = { ...e.ssl, version: s[10]!, certificate: { ...e.ssl.certificate, cn: s[11]!, issuer_name: s[12]! } }
    e.http = { ...e.http, title: s[13]!, header: { [s[14]!]: s[15]! } }
    e.geoip = { ...e.geoip, city_name: s[16]!, region_name: s[17]!, country_name: s[18]!, location: { lat: 1.5, lon: -2.25 } }
    e.network = { ...e.network, organization_name: s[19]!, network: s[20]!, asn: 64501 }
    e.event_pipeline = [s[21]!]
    // Protocol objects: drawn as labelled tables on the host page.
    e.redis = { version: s[22]!, mode: s[23]!, auth_required: true }
    e.mongodb = { databases: [s[24]!, s[25]!], wire_version: 17 }
    e.ssh = { ...e.ssh, banner: s[22]!, kex_algorithms: [s[23]!] }
    return e
  })

/** What XML 1.0 cannot carry (controls, U+FFFE/FFFF, lone surrogates) as U+FFFD; CR LF as LF, as an XML parser reads it. */
const xmlSafe = (text: string) =>
  text.replace(/[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '\ufffd').replace(/\r\n?/g, '\n')

interface Parsed {
  /** The event keys of the links to raw JSON. */
  rawKeys: string[]
  /** All the page's text, joined. */
  text: string
}

/** Parses a page strictly and checks its structure; returns its links to raw JSON and its text. */
function inspect(html: string): Parsed {
  const parser = new SaxesParser()
  const rawKeys: string[] = []
  let text = ''
  let inScript = false
  const problems: string[] = []
  parser.on('doctype', (d) => {
    if (d.trim() !== 'html') problems.push(`doctype ${d}`)
  })
  parser.on('opentag', (tag) => {
    if (!ELEMENTS.has(tag.name)) problems.push(`element <${tag.name}>`)
    // The one script is the page's own file: no other script element, no inline script.
    inScript = tag.name === 'script'
    if (inScript && (tag.attributes as Record<string, string>).src !== SCRIPT_HREF) problems.push('a script that is not /static/l9kit.js')
    for (const [name, value] of Object.entries(tag.attributes as Record<string, string>)) {
      if (!ATTRIBUTES.has(name)) problems.push(`attribute ${name} on <${tag.name}>`)
      if (name === 'class') for (const c of value.split(' ')) if (!CLASSES.has(c)) problems.push(`class ${JSON.stringify(c)}`)
      if ((name === 'href' || name === 'action') && !/^(\/(?!\/)|\?|#[a-z-]+$)/.test(value)) problems.push(`${name}=${JSON.stringify(value)}`)
      if (name === 'href' && value.startsWith('/') && value.slice(1).includes('/') && !/^\/(host|domain|static)\/[^/]*$|^\/raw\/(host|domain)\/[^/]*\/[0-9a-f]{16}$/.test(value.split('?')[0]!)) {
        problems.push(`href ${JSON.stringify(value)}`)
      }
    }
    const raw = /^\/raw\/(?:host|domain)\/[^/]*\/([0-9a-f]{16})$/.exec((tag.attributes as Record<string, string>).href ?? '')
    if (raw !== null) rawKeys.push(raw[1]!)
  })
  parser.on('closetag', () => void (inScript = false))
  parser.on('text', (t) => {
    if (inScript && t.trim() !== '') problems.push('text inside a script element')
    text += t
  })
  parser.on('error', (e) => problems.push(`not well-formed: ${e.message}`))
  parser.write(xmlSafe(html)).close()
  expect(problems).toEqual([])
  return { rawKeys, text }
}

describe('pages escape every value from an event (property)', () => {
  it('host, domain, index, results and error pages stay well-formed, with only our markup, and show the values as text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(hostileEvent, { minLength: 1, maxLength: 5 }), fc.constantFrom(...SORT_KEYS), fc.constantFrom('asc' as const, 'desc' as const), hostile, async (events, key, dir, message) => {
        const store = new MemoryStore()
        const report = store.ingest(events)
        expect(report.rejected).toEqual([])
        const stored = (await store.hostSeen(IP))!.leaks.concat((await store.hostSeen(IP))!.services)
        const storedEvents = stored.map((e) => JSON.parse(Buffer.from(e.json).toString('utf8')) as Event)
        const keys = new Set(storedEvents.map(eventKey))
        const hostSort = key === 'ip' ? DEFAULT_SORT : { key, dir }
        const host = inspect(renderHost(hostView(IP, store.hostSeen(IP)!, hostSort), `/host/${IP}`))
        const domain = inspect(renderDomain(domainView('evil.test', store.domainSeen('evil.test')!, store.subdomains('evil.test')!, 1, 'anonymous', { key, dir }), '/domain/evil.test'))
        for (const drawn of [host, domain]) {
          expect(new Set(drawn.rawKeys)).toEqual(keys)
          for (const e of storedEvents.filter((e) => e.event_type === 'leak')) expect(drawn.text).toContain(xmlSafe(e.event_source))
        }

        // The protocol objects' values come back as text on the host page.
        for (const e of storedEvents) for (const v of [e.redis!.version!, ...e.mongodb!.databases!]) expect(host.text).toContain(xmlSafe(v))

        const counts = store.severityCounts()
        const latest = (store.search(parseQuery('*', { scope: 'leak' }), { offset: 0, limit: 10 }) as Uint8Array[]).map(resultRow)
        const plugins = storedEvents.map((e) => ({ name: e.event_source, count1h: 1, count24h: 1, count7d: 1, query: `+plugin:${message}`, scope: 'leak' as const }))
        inspect(renderIndex({ counts: severityList(counts), leaks: 0, events: store.size, latest, plugins, pluginsKnown: plugins.length }))
        const rows = (store.search(parseQuery('*', { scope: 'service' }), { offset: 0, limit: 20 }) as Uint8Array[]).map(resultRow)
        // Facet values are event text (a plugin's name, a host name): escaped like the rest.
        const facets = [{ name: 'plugin', label: 'Plugin', values: storedEvents.map((e) => ({ label: e.event_source, count: 1, q: `${message} +plugin:="${e.event_source}"` })) }]
        const results = inspect(renderResults({ q: message, scope: 'service', page: 1, rows, more: true, error: null, total: 7, uncounted: '', facets }, '/search'))
        for (const e of storedEvents.filter((e) => e.event_type === 'service')) expect(results.text).toContain(xmlSafe(e.event_source))
        const cut = Math.floor(message.length / 2)
        inspect(renderResults({ q: message, scope: 'leak', page: 0, rows: [], more: false, error: { message, before: message.slice(0, cut), term: message.slice(cut, cut + 3), after: message.slice(cut + 3), position: cut + 1 }, total: null, uncounted: message, facets: [] }, '/search'))
        inspect(renderError({ status: 400, reason: 'Bad Request', description: message }, message, { q: message, scope: message }))
      }),
      { numRuns: 150 },
    )
  })

  it('the checker itself catches markup that was not escaped', () => {
    expect(() => inspect('<!DOCTYPE html><html><head><script>alert(1)</script></head><body></body></html>')).toThrow()
    expect(() => inspect('<!DOCTYPE html><html><head><script src="//evil.test/x.js"></script></head><body></body></html>')).toThrow()
    expect(() => inspect('<!DOCTYPE html><html><body><p><img src="x" onerror="alert(1)" /></p></body></html>')).toThrow()
    expect(() => inspect('<!DOCTYPE html><html><body><p class="sev-<b>">x</p></body></html>')).toThrow()
    expect(() => inspect('<!DOCTYPE html><html><body><a href="javascript:alert(1)">x</a></body></html>')).toThrow()
  })
})
