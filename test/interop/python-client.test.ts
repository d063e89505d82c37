/**
 * LeakIX's own Python client (`leakix` 1.1.0, ../shared/peers/LeakIXClient-Python, unchanged) and
 * the format owner's model it reads answers with (`l9format` 2.0.1), against `l9kit serve` on
 * the memory store and on PostgreSQL: every public method of `Client` and `AsyncClient`, every
 * query class, every field class with every `Operator`, the docstrings' queries, and
 * `executable/cli.py`'s bulk export. What each call should give is worked out from the loaded
 * events (fixture.ts), not by l9kit's engine. A planted fault (a proxy that drops the last page
 * of a search) must make the same judgement fail.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Event } from '../../src/schema/index.js'
import { jsonl, makeEvent } from '../service/support.js'
import { fileTempDir } from '../support/temp.js'
import { canonicalAddress, dayOf, fixtureEvents, hasPhrase, inCountry, newestFirst, pythonRow, pythonTime, type Scope, under } from './peers/fixture.js'
import { run } from '../languages/support.js'
import { needsPeers, PYTHON, pythonEnv, pythonTools } from './peers/peers.js'
import { droppingLastPage } from './peers/fault.js'
import { admin, KEYS, serve, type Service, stores } from './peers/service.js'

const DRIVER = join(import.meta.dirname, 'peers', 'leakix_driver.py')
const PAGE = 4
const dir = fileTempDir('l9kit-peers-python-')

type Q = { kind: 'must' | 'must_not' | 'should'; field: string; args: unknown[]; op?: '>' | '<' | '' | null } | { kind: 'raw'; text: string } | { kind: 'empty' }
interface Call {
  client: 'sync' | 'async'
  method: string
  args?: unknown[]
  queries?: Q[]
}

const must = (field: string, args: unknown[], op: '>' | '<' | '' | null = null): Q => ({ kind: 'must', field, args, op })
const raw = (text: string): Q => ({ kind: 'raw', text })
const date = (d: string) => ({ date: d })

/** One driver run: each call's answer, parsed. Asynchronous: the planted fault's proxy answers from this process. */
async function drive(env: NodeJS.ProcessEnv, url: string, key: string, calls: Call[]): Promise<any[]> {
  const result = await run(PYTHON, [DRIVER, url, key], { input: calls.map((c) => JSON.stringify(c)).join('\n') + '\n', env })
  expect(result.stderr).toBe('')
  expect(result.code).toBe(0)
  return result.stdout.trimEnd().split('\n').map((l) => JSON.parse(l))
}

const ok = (items: unknown, q?: string) => ({ type: 'SuccessResponse', status: 200, items, ...(q === undefined ? {} : { q }) })
const error = (status: number, items: unknown, q?: string) => ({ type: 'ErrorResponse', status, items, ...(q === undefined ? {} : { q }) })

/** A search's expected page: the matching events of the scope, newest first, `PAGE` a page. */
function page(events: Event[], scope: Scope, match: (e: Event) => boolean, n = 0, row: (e: Event) => unknown = pythonRow): unknown[] {
  const found = newestFirst(events.filter((e) => e.event_type === scope && match(e)))
  return found.slice(n * PAGE, (n + 1) * PAGE).map(row)
}
/** An event as `get` leaves it (a JSON object: the time as the service wrote it). */
const rawRow = (e: Event) => [e.event_source, e.ip, e.port, e.time]

/** The expected answer of every search case; `events` are the loaded ones. */
function searchCases(events: Event[]): [string, Call, unknown][] {
  const t = (e: Event) => Date.parse(e.time)
  const day = (d: string) => Date.parse(`${d}T00:00:00Z`)
  const svc = (m: (e: Event) => boolean, n = 0) => page(events, 'service', m, n)
  const lk = (m: (e: Event) => boolean, n = 0) => page(events, 'leak', m, n)
  const cases: [string, Call, unknown][] = [
    ['get SERVICE, no queries: `*`, page 0', { client: 'sync', method: 'get', args: [{ scope: 'service' }, 0], queries: [] }, ok(page(events, 'service', () => true, 0, rawRow), '*')],
    ['get SERVICE, EmptyQuery, page 1', { client: 'sync', method: 'get', args: [{ scope: 'service' }, 1], queries: [{ kind: 'empty' }] }, ok(page(events, 'service', () => true, 1, rawRow), '*')],
    ['get LEAK, page 9 (past the last)', { client: 'sync', method: 'get', args: [{ scope: 'leak' }, 9], queries: [] }, ok([], '*')],
    ['get with a negative page raises', { client: 'sync', method: 'get', args: [{ scope: 'leak' }, -1], queries: [] }, { raised: 'ValueError: Page argument must be a positive integer' }],
  ]
  const port = (op: '>' | '<' | '', test: (p: number) => boolean, n: number) =>
    [`PortField(${n}, ${op === '' ? 'Equal' : op})`, { client: 'sync', method: 'get_service', queries: [must('PortField', [n], op)] }, ok(svc((e) => test(Number(e.port))), `+port:${op}${n}`)] as [string, Call, unknown]
  cases.push(port('>', (p) => p > 1000, 1000), port('<', (p) => p < 1000, 1000), port('', (p) => p === 1000, 1000), port('', (p) => p === 443, 443), port('>', (p) => p > 443, 443))
  cases.push(
    ['PortField(70000) raises', { client: 'sync', method: 'get_service', queries: [must('PortField', [70000])] }, { raised: 'ValueError: Port must be between 0 and 65535, got 70000' }],
    ['IPField CIDR, Equal', { client: 'sync', method: 'get_service', queries: [must('IPField', ['192.0.2.0/30'], '')] }, ok(svc((e) => ['192.0.2.1', '192.0.2.2', '192.0.2.3'].includes(e.ip)), '+ip:192.0.2.0/30')],
    ['IPField, an IPv6 address in another spelling (no operator)', { client: 'sync', method: 'get_service', queries: [must('IPField', ['2001:db8:0:0::'])] }, ok(svc((e) => canonicalAddress(e.ip) === '2001:db8::' && e.ip.includes(':')), '+ip:2001:db8:0:0::')],
    ...(['>', '<'] as const).map((op): [string, Call, unknown] => [
      `IPField(${op}): refused with the field and what to write instead`,
      { client: 'sync', method: 'get_service', queries: [must('IPField', ['192.0.2.5'], op)] },
      error(400, { title: 'Bad Request', description: `bad query at position 2 (\`ip:${op}192.0.2.5\`): \`ip\` is an ip field: ranges (\`:${op}\`) apply to integer, number and date fields, and to \`port\` (for a range of addresses give a CIDR block: \`ip:192.0.2.0/24\`)` }, `+ip:${op}192.0.2.5`),
    ]),
    ['CountryField must not, PortField must', { client: 'sync', method: 'get_service', queries: [{ kind: 'must_not', field: 'CountryField', args: ['Germany'] }, must('PortField', [443])] }, ok(svc((e) => e.port === '443' && !inCountry(e, 'Germany')), '-country:Germany +port:443')],
    ['ShouldQuery: any of two countries', { client: 'sync', method: 'get_service', queries: [{ kind: 'should', field: 'CountryField', args: ['BE'] }, { kind: 'should', field: 'CountryField', args: ['Netherlands'] }] }, ok(svc((e) => inCountry(e, 'BE') || inCountry(e, 'Netherlands')), 'country:BE country:Netherlands')],
    ['ShouldQuery beside a MustQuery narrows nothing', { client: 'sync', method: 'get_service', queries: [must('PortField', [443]), { kind: 'should', field: 'CountryField', args: ['JP'] }] }, ok(svc((e) => e.port === '443'), '+port:443 country:JP')],
    ['PluginField(Plugin.HttpNTLM), page 0 (the example)', { client: 'sync', method: 'get_service', args: [0], queries: [must('PluginField', [{ plugin: 'HttpNTLM' }])] }, ok(svc((e) => e.event_source === 'HttpNTLM'), '+plugin:HttpNTLM')],
    ['get_leak: PluginField(GitConfigHttpPlugin)', { client: 'sync', method: 'get_leak', queries: [must('PluginField', [{ plugin: 'GitConfigHttpPlugin' }])] }, ok(lk((e) => e.event_source === 'GitConfigHttpPlugin'), '+plugin:GitConfigHttpPlugin')],
  )
  for (const [cls, field] of [['TimeField', 'time'], ['UpdateDateField', 'update_date']] as const) {
    cases.push(
      [`${cls} >`, { client: 'sync', method: 'get_leak', queries: [must(cls, [date('2026-11-24')], '>')] }, ok(lk((e) => t(e) > day('2026-11-24')), `+${field}:>"2026-11-24"`)],
      [`${cls} <`, { client: 'sync', method: 'get_leak', queries: [must(cls, [date('2026-11-24')], '<')] }, ok(lk((e) => t(e) < day('2026-11-24')), `+${field}:<"2026-11-24"`)],
      [`${cls} Equal: that whole day`, { client: 'sync', method: 'get_leak', queries: [must(cls, [date('2026-11-24')], '')] }, ok(lk((e) => dayOf(e.time) === '2026-11-24'), `+${field}:"2026-11-24"`)],
    )
  }
  cases.push(
    ['AgeField(0), Equal: every leak seen once', { client: 'sync', method: 'get_leak', queries: [must('AgeField', [0])] }, ok(lk(() => true), '+age:0')],
    ['AgeField(0, >)', { client: 'sync', method: 'get_leak', queries: [must('AgeField', [0], '>')] }, ok([], '+age:>0')],
    ['AgeField(1, <)', { client: 'sync', method: 'get_leak', queries: [must('AgeField', [1], '<')] }, ok(lk(() => true), '+age:<1')],
    ['CustomField severity, Equal', { client: 'sync', method: 'get_leak', queries: [must('CustomField', ['critical', 'severity'])] }, ok(lk((e) => e.leak.severity === 'critical'), '+severity:critical')],
    ['CustomField http.title with no value (the syntax allows it): nothing', { client: 'sync', method: 'get_service', queries: [must('CustomField', ['', 'http.title'])] }, ok([], '+http.title:')],
    ['CustomField port >, CustomField events.leak.severity', { client: 'sync', method: 'get_leak', queries: [must('CustomField', ['6000', 'port'], '>'), must('CustomField', ['high', 'events.leak.severity'], '')] }, ok(lk((e) => Number(e.port) > 6000 && e.leak.severity === 'high'), '+port:>6000 +events.leak.severity:high')],
    ['RawQuery("+host:.be") (its docstring)', { client: 'sync', method: 'get_service', queries: [raw('+host:.be')] }, ok(svc((e) => under(e.host, 'be')), '+host:.be')],
    ['RawQuery of the example: +plugin:HttpNTLM +country:"France"', { client: 'sync', method: 'get_service', queries: [raw('+plugin:HttpNTLM +country:"France"')] }, ok(svc((e) => e.event_source === 'HttpNTLM' && inCountry(e, 'France')), '+plugin:HttpNTLM +country:"France"')],
    ['RawQuery with a space after the sign', { client: 'sync', method: 'get_service', queries: [raw('+ port:22')] }, ok(svc((e) => e.port === '22'), '+ port:22')],
    ['RawQuery phrase', { client: 'sync', method: 'get_service', queries: [raw('+"Location: /home/"')] }, ok(svc((e) => hasPhrase(e, 'Location: /home/')), '+"Location: /home/"')],
    ['search("+plugin:GitConfigHttpPlugin", Scope.LEAK) (its docstring)', { client: 'sync', method: 'search', args: ['+plugin:GitConfigHttpPlugin', { scope: 'leak' }] }, ok(lk((e) => e.event_source === 'GitConfigHttpPlugin'))],
    ['search("+country:FR +port:22", Scope.SERVICE) (its docstring)', { client: 'sync', method: 'search', args: ['+country:FR +port:22', { scope: 'service' }] }, ok(svc((e) => inCountry(e, 'FR') && e.port === '22'))],
    ['search, default scope LEAK, page 1', { client: 'sync', method: 'search', args: ['*', { scope: 'leak' }, 1] }, ok(lk(() => true, 1))],
    ['search a bad query: the 400 body', { client: 'sync', method: 'search', args: ['+countri:FR', { scope: 'service' }] }, error(400, { title: 'Bad Request', description: 'bad query at position 2 (`countri`): there is no field `countri`; did you mean `country`?' })],
  )
  return cases
}

/** Lookups, plugins, subdomains and the bulk calls. */
function otherCases(events: Event[]): [string, Call, unknown][] {
  const at = (ip: string) => events.filter((e) => canonicalAddress(e.ip) === ip)
  const split = (list: Event[]) => {
    const part = (type: string) => {
      const found = list.filter((e) => e.event_type === type)
      return found.length === 0 ? null : found.map(rawRow)
    }
    return { services: part('service'), leaks: part('leak') }
  }
  const leaks = events.filter((e) => e.event_type === 'leak')
  /** The bulk export of `match`: one aggregation per address, events newest first, every event's ip the canonical one. */
  const bulk = (match: (e: Event) => boolean) => {
    const found = newestFirst(leaks.filter(match))
    const ips = [...new Set(found.map((e) => canonicalAddress(e.ip)))].sort()
    return ips.map((ip) => {
      const own = found.filter((e) => canonicalAddress(e.ip) === ip)
      return {
        ip,
        resource_id: ip,
        open_ports: [...new Set(own.map((e) => e.port))].sort((a, b) => Number(a) - Number(b)),
        leak_count: new Set(own.map((e) => `${e.event_source} ${e.host} ${e.port}`)).size,
        leak_event_count: own.length,
        plugins: [...new Set(own.map((e) => e.event_source))].sort(),
        events: own.map((e) => [e.event_source, ip, e.port, pythonTime(e.time)]),
        dict_keys: ['creation_date', 'events', 'fresh', 'geoip', 'ip', 'leak_count', 'leak_event_count', 'network', 'open_ports', 'plugins', 'resource_id', 'summary', 'update_date'],
      }
    })
  }
  const subdomains = (domain: string) => {
    const names = [...new Set(events.filter((e) => e.host !== '' && e.host !== domain && under(e.host, domain)).map((e) => e.host))]
    return names
      .map((name) => {
        const own = events.filter((e) => e.host === name)
        const last = own.map((e) => e.time).sort((a, b) => Date.parse(b) - Date.parse(a))[0]!
        // L9Subdomain declares `datetime | None`, which from_dict leaves as the JSON text.
        return [name, new Set(own.map((e) => canonicalAddress(e.ip))).size, new Date(Date.parse(last)).toISOString()]
      })
      .sort((a, b) => Date.parse(b[2] as string) - Date.parse(a[2] as string) || (a[0]! < b[0]! ? -1 : 1))
  }
  const plugins = [...new Set(events.map((e) => e.event_source))].sort().map((name) => [name, name === 'GitConfigHttpPlugin' ? 'Git configuration files served over HTTP.' : `Events reported by the ${name} plugin.`])
  return [
    ['get_host of an address with leaks only', { client: 'sync', method: 'get_host', args: ['192.0.2.10'] }, ok(split(at('192.0.2.10')))],
    ['get_host of an IPv6 address stored in two spellings', { client: 'sync', method: 'get_host', args: ['2001:db8::'] }, ok(split(at('2001:db8::')))],
    ['get_host of an address nothing has', { client: 'sync', method: 'get_host', args: ['192.0.2.99'] }, ok({ services: null, leaks: null })],
    ['get_host of something else: 400', { client: 'sync', method: 'get_host', args: ['not-an-ip'] }, { type: 'ErrorResponse', status: 400, items: expect.objectContaining({ title: 'Bad Request' }) }],
    ['get_domain: the name and every name under it', { client: 'sync', method: 'get_domain', args: ['example.be'] }, 'domain example.be'],
    ['get_subdomains', { client: 'sync', method: 'get_subdomains', args: ['example.be'] }, ok(subdomains('example.be'))],
    ['get_plugins: every plugin of a stored event', { client: 'sync', method: 'get_plugins' }, ok(plugins)],
    ['get_plugin, known', { client: 'sync', method: 'get_plugin', args: ['GitConfigHttpPlugin'] }, ok(['GitConfigHttpPlugin', 'Git configuration files served over HTTP.'])],
    ['get_plugin, unknown: 404 "Plugin not found"', { client: 'sync', method: 'get_plugin', args: ['NoSuchPlugin'] }, error(404, 'Plugin not found')],
    ['bulk_export, plugin', { client: 'sync', method: 'bulk_export', queries: [must('PluginField', [{ plugin: 'GitConfigHttpPlugin' }])] }, { ...ok(bulk((e) => e.event_source === 'GitConfigHttpPlugin'), '+plugin:GitConfigHttpPlugin') }],
    ['bulk_export, one address in two spellings: one spelling in the line', { client: 'sync', method: 'bulk_export', queries: [raw('+ip:2001:db8::/32')] }, ok(bulk((e) => e.ip.includes(':')), '+ip:2001:db8::/32')],
    ['bulk_export, nothing: 204', { client: 'sync', method: 'bulk_export', queries: [raw('+plugin:NoSuchPlugin')] }, { type: 'SuccessResponse', status: 204, items: [], q: '+plugin:NoSuchPlugin' }],
    ['bulk_export_last_event keeps the newest', { client: 'sync', method: 'bulk_export_last_event', queries: [raw('+country:FR')] }, ok(bulk((e) => inCountry(e, 'FR')).map((a) => ({ ...a, events: a.events.slice(0, 1) })), '+country:FR')],
    ['bulk_service', { client: 'sync', method: 'bulk_service', queries: [must('PortField', [443])] }, 'bulk_service +port:443'],
    ['bulk_export_stream', { client: 'sync', method: 'bulk_export_stream', queries: [] }, { type: 'iterator', items: bulk(() => true) }],
  ]
}

/** The AsyncClient: its methods, with a sample of the same cases (the answers are the same). */
function asyncCases(events: Event[]): [string, Call, unknown][] {
  const all = [...searchCases(events), ...otherCases(events)]
  const pick = (name: string) => all.find(([n]) => n === name)!
  const as = ([name, call, expected]: [string, Call, unknown]): [string, Call, unknown] => [`async ${name}`, { ...call, client: 'async' }, expected]
  return [
    as(pick('get SERVICE, EmptyQuery, page 1')),
    as(pick('PortField(1000, >)')),
    as(pick('get_leak: PluginField(GitConfigHttpPlugin)')),
    as(pick('search("+plugin:GitConfigHttpPlugin", Scope.LEAK) (its docstring)')),
    as(pick('search a bad query: the 400 body')),
    as(pick('get_host of an IPv6 address stored in two spellings')),
    as(pick('get_domain: the name and every name under it')),
    as(pick('get_plugins: every plugin of a stored event')),
    as(pick('get_plugin, unknown: 404 "Plugin not found"')),
    as(pick('get_subdomains')),
    as(pick('bulk_export, plugin')),
    as(pick('bulk_export_stream')),
  ]
}

/** Judges the driver's answers: ordered lists as they are, the domain lookup and bulk_service as sets (no order promised). */
function judge(events: Event[], cases: [string, Call, unknown][], answers: any[]): void {
  cases.forEach(([name, call, expected], i) => {
    let got = answers[i]
    // Resources come in the store's resource order (docs/service.md, "Bulk export"): compared by address.
    if (call.method.startsWith('bulk_export') && Array.isArray(got?.items)) got = { ...got, items: [...got.items].sort((a: { ip: string }, b: { ip: string }) => (a.ip < b.ip ? -1 : 1)) }
    if (expected === 'domain example.be') {
      const own = events.filter((e) => under(e.host, 'example.be'))
      const sorted = (list: unknown[] | null) => (list === null ? null : [...list].map((x) => JSON.stringify(x)).sort())
      const want = { services: own.filter((e) => e.event_type === 'service').map(rawRow), leaks: own.filter((e) => e.event_type === 'leak').map(rawRow) }
      expect({ ...got, items: { services: sorted(got.items.services), leaks: sorted(got.items.leaks) } }, name).toEqual(ok({ services: sorted(want.services), leaks: sorted(want.leaks) }))
    } else if (expected === 'bulk_service +port:443') {
      const want = events.filter((e) => e.event_type === 'service' && e.port === '443').map(pythonRow)
      expect({ ...got, items: [...got.items].map((x: unknown) => JSON.stringify(x)).sort() }, name).toEqual(ok(want.map((x) => JSON.stringify(x)).sort(), '+port:443'))
    } else expect(got, name).toEqual(expected)
  })
}

needsPeers("LeakIX's Python client: every public method of Client and AsyncClient, every query and field class", ['LeakIXClient-Python', 'l9format-python'], pythonTools, (peers) => {
  const env = pythonEnv(peers, dir)

  describe.each(stores())('against l9kit serve (%s store)', (_name, storeArgs) => {
    let service: Service
    const events = fixtureEvents()
    beforeAll(async () => (service = await serve(dir, storeArgs(), jsonl(events), PAGE)), 120_000)
    afterAll(() => service?.stop())

    it('Client: searches with every query class, field class and Operator, the docstrings\' queries', async () => {
      const cases = searchCases(events)
      judge(events, cases, await drive(env, service.url, KEYS.pro, cases.map(([, call]) => call)))
    }, 120_000)

    it('Client: host and domain lookups, subdomains, plugins, and the bulk calls (one address in one spelling)', async () => {
      const cases = otherCases(events)
      judge(events, cases, await drive(env, service.url, KEYS.pro, cases.map(([, call]) => call)))
    }, 120_000)

    it('AsyncClient: the same answers, as a context manager, closed at the end', async () => {
      const cases = asyncCases(events)
      const answers = await drive(env, service.url, KEYS.pro, cases.map(([, call]) => call))
      expect(answers.at(-1)).toEqual({ closed: true })
      judge(events, cases, answers.slice(0, -1))
    }, 120_000)

    it('the bulk calls without a pro key: the 403 error body, the stream empty', async () => {
      const [forbidden, stream] = await drive(env, service.url, '', [
        { client: 'sync', method: 'bulk_export', queries: [] },
        { client: 'sync', method: 'bulk_export_stream', queries: [] },
      ])
      expect(forbidden).toMatchObject({ type: 'ErrorResponse', status: 403, items: { title: 'Forbidden' } })
      expect(stream).toEqual({ type: 'iterator', items: [] })
    }, 60_000)

    it('executable/cli.py bulk_export_to_json: --before and --after as it writes them, the file it saves', () => {
      const out = join(dir, `export-${_name}.json`)
      const cli = join(peers, 'LeakIXClient-Python', 'executable', 'cli.py')
      // It reads API_KEY with python-decouple and makes Client(api_key=…) with the default base
      // URL (leakix.net): that default argument is pointed at us by a sitecustomize, nothing else.
      const site = join(dir, `site-${_name}`)
      mkdirSync(site, { recursive: true })
      writeFileSync(join(site, 'sitecustomize.py'), `import leakix.base\nleakix.base.BaseClient.__init__.__defaults__ = (None, ${JSON.stringify(service.url)})\n`)
      const run = spawnSync(PYTHON, [cli, 'bulk_export_to_json', '--query=+plugin:"GitConfigHttpPlugin"', '--before=2026-11-01', `--after=${new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)}`, `--filename=${out}`], {
        env: { ...env, API_KEY: KEYS.pro, PYTHONPATH: `${site}:${env.PYTHONPATH}` },
        encoding: 'utf8',
        timeout: 60_000,
      })
      expect(run.stderr).toBe('')
      expect(run.status).toBe(0)
      const written = JSON.parse(readFileSync(out, 'utf8')) as { ip: string; events: { ip: string; event_source: string }[] }[]
      const want = events.filter((e) => e.event_type === 'leak' && e.event_source === 'GitConfigHttpPlugin')
      expect(written.map((a) => a.ip)).toEqual([...new Set(want.map((e) => e.ip))])
      expect(written.flatMap((a) => a.events.map((e) => e.event_source))).toEqual(want.map((e) => e.event_source))
    }, 60_000)

    it('get_plugins after DELETE /admin/events?tag=: plugins without a stored event are gone', async () => {
      const tagged = [makeEvent({ event_type: 'leak', event_source: 'TaggedOnlyPlugin', ip: '192.0.2.200', time: new Date().toISOString(), tags: ['peers-cleanup'] })]
      expect((await admin(service.url, 'POST', jsonl(tagged))).body.accepted).toBe(1)
      const [before] = await drive(env, service.url, KEYS.pro, [{ client: 'sync', method: 'get_plugins' }])
      expect(before.items.map((p: string[]) => p[0])).toContain('TaggedOnlyPlugin')
      expect((await admin(service.url, 'DELETE', { tag: 'peers-cleanup' })).body).toEqual({ deleted: 1 })
      const [after] = await drive(env, service.url, KEYS.pro, [{ client: 'sync', method: 'get_plugins' }])
      expect(after.items.map((p: string[]) => p[0])).toEqual([...new Set(events.map((e) => e.event_source))].sort())
    }, 60_000)

    it('a planted fault (a search that drops its last page) fails the same judgement', async () => {
      const proxy = await droppingLastPage(service.url)
      try {
        const cases = searchCases(events).filter(([name]) => name === 'get SERVICE, EmptyQuery, page 1')
        const answers = await drive(env, proxy.url, KEYS.pro, cases.map(([, call]) => call))
        expect(() => judge(events, cases, answers)).toThrow()
      } finally {
        proxy.close()
      }
    }, 60_000)
  })
})

export type { Q }
