/**
 * LeakIX's documented queries as a table: every query example of its query documentation
 * (../shared/peers/DocSite/content/docs/query/: syntax.md, fields.md, dorks.md) and of its
 * clients' docstrings and examples, each with what it finds among a few events written here,
 * by what the page says it means. Where l9kit reads one differently on purpose, the row says
 * why (docs/search.md says it too). When the peers folder is there, the test also reads the
 * pages and checks that every example on them is a row of the table.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { matches, parseQuery } from '../../src/query/index.js'
import type { Event } from '../../src/schema/index.js'
import { PEERS } from '../interop/peers/peers.js'
import { makeEvent } from '../service/support.js'

const base = makeEvent({})
const at = (time: string) => ({ time })
const geo = (continent: string, code: string, name: string) => ({ ...base.geoip, continent_name: continent, country_iso_code: code, country_name: name })
const cert = (c: Partial<Event['ssl']['certificate']>) => ({ ...base.ssl, certificate: { ...base.ssl.certificate, ...c } })

/** The events, by name. `F` carries every example value of fields.md; `N` none. */
const EVENTS: Record<string, Event> = {
  F: makeEvent({
    event_type: 'leak', event_source: 'GitConfigPlugin', event_pipeline: ['CertStream'], ...at('2023-01-01T12:00:00Z'), ip: '8.8.4.4', host: 'www.leakix.net', port: '8000', transport: ['tls', 'http', 'smb'],
    http: { ...base.http, url: '/.git/config', status: 401, header: { Server: 'Apache' } },
    ssl: { ...cert({ key_algo: 'RSA', key_size: 2048, not_before: '2023-01-01T06:00:00Z' }), cypher_suite: 'TLS_AES_128_GCM_SHA256', version: 'TLSv1.3' },
    service: { ...base.service, software: { ...base.service.software, name: 'Apache', os: 'Ubuntu', modules: [{ name: 'PHP', version: '8.2', fingerprint: '' }, { name: 'OpenSSL', version: '3.0', fingerprint: '' }] } },
    tags: ['ntlm'], geoip: geo('Europe', 'FR', 'France'), network: { organization_name: 'Hetzner Online GmbH', asn: 16276, network: '8.8.0.0/16' },
    leak: { ...base.leak, severity: 'critical', dataset: { ...base.leak.dataset, ransom_notes: ['send btc to this wallet'] } },
  }),
  N: makeEvent({ ...at('2024-05-05T00:00:00Z'), ip: '192.0.2.200', port: '80', summary: 'nothing here' }),
  T: makeEvent({ ...at('2024-01-01T00:00:00Z'), summary: 'HTTP/1.1 200 OK\r\nServer: TornadoServer/6.1' }),
  L1: makeEvent({ ...at('2024-01-02T00:00:00Z'), summary: 'HTTP/1.1 302 Found\r\nLocation: /home/\r\nServer: Apache' }),
  L2: makeEvent({ ...at('2024-01-03T00:00:00Z'), summary: 'HTTP/1.1 302 Found\r\nLocation: /home/\r\nServer: nginx', ssl: { ...cert({ not_before: '2023-03-01T00:00:00Z' }), jarm: '15d3fd16d29d29d00042d43d0000009ec686233a4398bea334ba5e62e34a01' } }),
  J1: makeEvent({ ...at('2024-01-04T00:00:00Z'), ssl: { ...base.ssl, jarm: '29d29d15d29d29d00042d42d0000009435214b849738c4ebab4534b5d158dd' } }),
  C1: makeEvent({ ...at('2024-01-05T00:00:00Z'), ssl: cert({ not_before: '2023-06-01T00:00:00Z' }) }),
  R: makeEvent({ ...at('2024-01-06T00:00:00Z'), host: 'shop.example.fr', geoip: geo('Europe', 'DE', 'Germany') }),
  RU: makeEvent({ ...at('2024-01-07T00:00:00Z'), geoip: geo('Europe', 'RU', 'Russia') }),
  G1: makeEvent({ event_type: 'leak', event_source: 'GitConfigHttpPlugin', ...at('2024-01-08T00:00:00Z'), summary: '[remote "origin"] url = https://github.com/example/site.git', leak: { ...base.leak, severity: 'critical' } }),
  G2: makeEvent({ event_type: 'leak', event_source: 'GitConfigHttpPlugin', ...at('2024-01-09T00:00:00Z'), leak: { ...base.leak, severity: 'high' } }),
  D1: makeEvent({ event_type: 'leak', event_source: 'DotDsStoreOpenPlugin', ...at('2024-01-10T00:00:00Z'), leak: { ...base.leak, severity: 'high' } }),
  DS: makeEvent({ event_type: 'leak', event_source: 'MongoOpenPlugin', ...at('2024-01-11T00:00:00Z'), leak: { ...base.leak, severity: 'critical', dataset: { ...base.leak.dataset, infected: true, size: 20_000_000_000, ransom_notes: ['pay 0.1 BTC to recover'] } } }),
  FG: makeEvent({ ...at('2024-01-12T00:00:00Z'), ssl: cert({ issuer_name: 'FortiGate CA' }) }),
  UK1: makeEvent({ ...at('2023-05-01T00:00:00Z'), ssl: cert({ cn: 'www.shop.co.uk' }) }),
  UK2: makeEvent({ ...at('2022-06-01T00:00:00Z'), ssl: cert({ domain: ['mail.example.co.uk'] }) }),
  B1: makeEvent({ ...at('2024-01-13T00:00:00Z'), host: 'www.example.be' }),
  S22: makeEvent({ ...at('2024-01-14T00:00:00Z'), port: '22', geoip: geo('Europe', 'FR', 'France') }),
  NT: makeEvent({ event_source: 'HttpNTLM', ...at('2024-01-15T00:00:00Z'), geoip: geo('Europe', 'FR', 'France'), tags: ['ntlm'] }),
  SMB: makeEvent({ event_source: 'SmbPlugin', ...at('2024-01-16T00:00:00Z'), geoip: geo('Europe', 'BE', 'Belgium') }),
  W: makeEvent({ ...at('2024-01-17T00:00:00Z'), port: '443', summary: "<script>window.onload=function(){ url ='/webui';window.location.href=url;}</script>" }),
}

interface Row {
  /** The query, as the page writes it. */
  q: string
  /** Where it is written. */
  from: string
  /** The names of the events it finds, or the refusal's message (a RegExp) when l9kit refuses it on purpose. */
  finds: string[] | RegExp
  /** When l9kit reads it otherwise than the page says: why (docs/search.md, "LeakIX's documented queries"). */
  differs?: string
}

const SYNTAX = 'syntax.md'
const DORKS = 'dorks.md'
const FIELDS = 'fields.md'

/** Field examples that find more than `F`. */
const FIELD_FINDS: Record<string, string[]> = {
  'tags:ntlm': ['F', 'NT'],
  'geoip.continent_name:Europe': ['F', 'R', 'RU', 'S22', 'NT', 'SMB'],
  'geoip.country_iso_code:FR': ['F', 'S22', 'NT'],
  'geoip.country_name:France': ['F', 'S22', 'NT'],
  'leak.severity:critical': ['F', 'G1', 'DS'],
  'leak.dataset.ransom_notes:btc': ['F', 'DS'],
}

const TABLE: Row[] = [
  { q: 'TornadoServer', from: SYNTAX, finds: ['T'] },
  { q: '"Location: /home/"', from: SYNTAX, finds: ['L1', 'L2'] },
  { q: '+"Location: /home/" +Apache', from: SYNTAX, finds: ['L1'] },
  { q: 'jarm:"29d29d15d29d29d00042d42d0000009435214b849738c4ebab4534b5d158dd"', from: SYNTAX, finds: ['J1'] },
  { q: 'ssl.certificate.not_before:>2023-03-10', from: SYNTAX, finds: ['C1'] },
  { q: '+"Location: /home/" +(Apache nginx) +jarm:"15d3fd16d29d29d00042d43d0000009ec686233a4398bea334ba5e62e34a01" +ssl.certificate.not_before:>2023-02-10', from: SYNTAX, finds: ['L2'] },
  { q: '+(country:"France" host:"fr")', from: DORKS, finds: ['F', 'R', 'S22', 'NT'], differs: 'the page says country is case sensitive; l9kit compares ISO codes and names in any case (a name given in lower case still finds France)' },
  { q: '+geoip.continent_name:"Europe" -country:"Russia"', from: DORKS, finds: ['F', 'R', 'S22', 'NT', 'SMB'] },
  { q: '(+plugin:"GitConfigHttpPlugin" +severity:"critical") (+plugin:"DotDsStoreOpenPlugin" +severity:"high")', from: DORKS, finds: ['G1', 'D1'] },
  { q: '+dataset.infected:true +dataset.size:>10000000000', from: DORKS, finds: ['DS'] },
  { q: '+dataset.ransom_notes:"btc"', from: DORKS, finds: ['F', 'DS'] },
  { q: '+ssl.certificate.issuer_name:"FortiGate"', from: DORKS, finds: ['FG'] },
  { q: 'ssl.certificate.cn:"co.uk" ssl.certificate.domain:"co.uk"', from: DORKS, finds: ['UK1', 'UK2'] },
  { q: '+(ssl.certificate.cn:"co.uk" ssl.certificate.domain:"co.uk") +creation_date:>2023-01-01', from: DORKS, finds: ['UK1'] },
  { q: '+events.leak.severity:"critical" +plugin:"GitConfigHttpPlugin" +"github.com"', from: DORKS, finds: ['G1'] },
  // The field table's examples, each as `field:example` (`http.header.server:Apache` is one already).
  ...[
    'plugin:GitConfigPlugin', 'event_pipeline:CertStream', 'time:2023-01-01', 'ip:8.8.0.0/16', 'host:leakix.net', 'port:8000', 'transport:tls', 'transport:http', 'transport:smb',
    'http.url:/.git/config', 'http.status:401', 'http.header.server:Apache', 'ssl.cypher_suite:TLS_AES_128_GCM_SHA256', 'ssl.version:TLSv1.3', 'ssl.certificate.key_algo:RSA',
    'ssl.certificate.key_size:2048', 'ssl.certificate.not_before:2023-01-01', 'service.software.name:Apache', 'service.software.os:Ubuntu', 'service.software.modules.name:PHP',
    'service.software.modules.name:OpenSSL', 'tags:ntlm', 'geoip.continent_name:Europe', 'geoip.country_iso_code:FR', 'geoip.country_name:France', 'network.asn:16276',
    'creation_date:2023-01-01', 'update_date:2023-01-01', 'leak.severity:critical', 'leak.dataset.ransom_notes:btc',
  ].map((q): Row => ({ q, from: FIELDS, finds: FIELD_FINDS[q] ?? ['F'] })),
  { q: 'network.organization_name:"Hetzner Online GmbH"', from: FIELDS, finds: ['F'], differs: 'the page types it keyword (the whole value, as written); l9kit reads it as text: these words in this order, any case, so `Hetzner` alone finds it too' },
  { q: 'leak.severity:high', from: FIELDS, finds: ['G2', 'D1'] },
  { q: 'ssl.certiticate.not_after:2023-01-01', from: FIELDS, finds: /there is no field `ssl\.certiticate\.not_after`; did you mean `ssl\.certificate\.not_after`\?/, differs: 'the page misspells the field (`certiticate`); l9kit refuses the name and points at `ssl.certificate.not_after`' },
  // The clients' docstrings and examples (LeakIXClient-Python).
  { q: '+host:.be', from: 'leakix/query.py RawQuery', finds: ['B1'] },
  { q: '+plugin:GitConfigHttpPlugin', from: 'leakix/client.py search', finds: ['G1', 'G2'] },
  { q: '+country:FR +port:22', from: 'leakix/client.py search', finds: ['S22'] },
  { q: '+plugin:HttpNTLM +country:"France"', from: 'example/example_client.py', finds: ['NT'] },
  { q: '+plugin:"SmbPlugin" +country:"Belgium"', from: 'example/example_client.py', finds: ['SMB'] },
  { q: '+"window.onload=function(){ url =\'/webui\';window.location.href=url;}" +port:443', from: 'example/example_client.py', finds: ['W'] },
  { q: '+plugin:"IOSEXPlugin"', from: 'executable/README.md', finds: [] },
]

describe("LeakIX's documented queries: each parses and finds what the page says", () => {
  it.each(TABLE.map((row) => [row.q, row] as const))('%s', (_q, row) => {
    if (row.finds instanceof RegExp) {
      expect(() => parseQuery(row.q)).toThrow(row.finds)
      expect(row.differs, 'a refusal is a deliberate difference: say why').toBeDefined()
      return
    }
    const query = parseQuery(row.q)
    const found = Object.entries(EVENTS).filter(([, event]) => matches(query, event)).map(([name]) => name)
    expect(found.sort()).toEqual([...row.finds].sort())
  })

  it('every deliberate difference is in docs/search.md', () => {
    const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'search.md'), 'utf8')
    for (const row of TABLE.filter((r) => r.differs !== undefined)) expect(doc, row.q).toContain(`\`${row.q}\``)
  })
})

/** The query examples of the pages: the code blocks of syntax.md and dorks.md, the example column of fields.md. */
function examplesOnPages(root: string): { from: string; q: string }[] {
  const dir = join(root, 'DocSite', 'content', 'docs', 'query')
  const out: { from: string; q: string }[] = []
  for (const from of [SYNTAX, DORKS]) {
    for (const block of readFileSync(join(dir, from), 'utf8').matchAll(/```sql\n([\s\S]*?)```/g)) {
      for (const line of block[1]!.split('\n')) if (line.trim() !== '') out.push({ from, q: line.trim() })
    }
  }
  for (const line of readFileSync(join(dir, FIELDS), 'utf8').split('\n')) {
    const cells = line.split('|').map((c) => c.trim())
    if (cells.length < 6 || !/^[a-z_.]+$/.test(cells[1]!)) continue
    for (const [, value] of (cells[4] ?? '').matchAll(/`([^`]+)`/g)) {
      const v = value!
      out.push({ from: FIELDS, q: v.includes(':') ? v : `${cells[1]}:${/\s/.test(v) ? `"${v}"` : v}` })
    }
  }
  return out
}

describe.skipIf(PEERS === undefined || !existsSync(join(PEERS ?? '', 'DocSite')))('the table holds every example of the pages (../shared/peers/DocSite)', () => {
  it('syntax.md, fields.md and dorks.md', () => {
    const onPages = examplesOnPages(PEERS!)
    expect(onPages.length).toBeGreaterThan(40)
    const inTable = new Set(TABLE.map((r) => r.q))
    expect(onPages.filter((e) => !inTable.has(e.q))).toEqual([])
  })
})
if (PEERS === undefined && process.env.CI === 'true') throw new Error('CI=true needs ../shared/peers for the documented queries table')
