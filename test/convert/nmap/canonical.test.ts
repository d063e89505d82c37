/**
 * The nmap XML converter vouches that its drafts are canonical (src/convert/nmap/canonical.ts),
 * so finishEvent skips the strict check. Property: whatever the attribute values, every event
 * it emits is exactly what normalize() makes of it.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { nmapXml } from '../../../src/convert/nmap/index.js'
import { normalize, serializeEvent } from '../../../src/normalize/index.js'
import { convertText } from '../../support/golden.js'

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/\n/g, '&#xa;')

/** Names of Object.prototype members: looked up in plain objects, they find no string. */
const PROTO = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty']
const printable = fc.stringMatching(/^[ -~]{0,12}$/)
const oneOf = (...values: string[]) => fc.oneof(fc.constantFrom(...values), printable)

const seconds = oneOf('', '1700000001', '0', '1.5', '-1', '99999999999999', '253402300800', ' 1700000001', '1e9', 'x')
const certTime = oneOf('', '2024-07-01T00:00:00', '2024-07-01 00:00:00', '2024-07-01T00:00:00.1234567891234', '2024-02-30T00:00:00', '9999-12-31T23:59:59+01:00', '0000-01-01T00:00:00-01:00')

const portXml = fc
  .record({
    portid: oneOf('22', '0', '443', '65535', '65536', '007'),
    name: oneOf('http', 'https', 'ssh', 'ssl', 'http?', 'unknown', 'tcpwrapped', ...PROTO),
    tunnel: fc.constantFrom('', 'ssl'),
    method: fc.constantFrom('probed', 'table'),
    extrainfo: oneOf('protocol 2.0', 'protocol 1.99', 'protocol 99999999999999999999.5'),
    keyType: oneOf('rsa', 'ec', 'RSA', ...PROTO),
    bits: oneOf('2048', '-1', '1e3', '99999999999999999999'),
    notBefore: certTime,
    notAfter: certTime,
    cn: printable,
    // Protocol scripts (src/convert/nmap/protocols.ts), in any order, with any values.
    protocolScripts: fc
      .tuple(
        fc.tuple(printable, oneOf('10', '-1', '1e3', '99999999999999999999')).map(([v, p]) => `<script id="mysql-info" output="x"><elem key="Protocol">${esc(p)}</elem><elem key="Version">${esc(v)}</elem></script>`),
        printable.map((v) => `<script id="redis-info" output="${esc(`\n  Version            ${v}\n  Operating System   ${v}`)}"/>`),
        printable.map((v) => `<script id="ssh2-enum-algos" output="x"><table key="mac_algorithms"><elem>${esc(v)}</elem></table><table key="kex_algorithms"><elem>${esc(v)}</elem></table></script>`),
        printable.map((v) => `<script id="ssh-auth-methods" output="x"><table key="Supported authentication methods"><elem>${esc(v)}</elem></table></script>`),
        printable.map((v) => `<script id="mongodb-databases" output="${esc(`\n  databases\n    0\n      name = ${v}`)}"/>`),
        printable.map((v) => `<script id="mongodb-info" output="${esc(`\n  version = ${v}\n  maxWireVersion = ${v}`)}"/>`),
        printable.map((v) => `<script id="vnc-info" output="x"><elem key="Protocol version">${esc(v)}</elem><table key="Security types"><table><elem key="name">${esc(v)}</elem></table></table></script>`),
        printable.map((v) => `<script id="smtp-commands" output="${esc(`host, ${v}, STARTTLS`)}"/>`),
      )
      .chain((scripts) => fc.shuffledSubarray(scripts)),
  })
  .map(
    (p) =>
      `<port protocol="tcp" portid="${esc(p.portid)}"><state state="open"/><service name="${esc(p.name)}" tunnel="${p.tunnel}" method="${p.method}" extrainfo="${esc(p.extrainfo)}"><cpe>cpe:/a:x:y:1</cpe><cpe>cpe:/o:linux</cpe></service>` +
      `<script id="ssl-cert" output="Subject: commonName=${esc(p.cn)}"><table key="subject"><elem key="commonName">${esc(p.cn)}</elem></table>` +
      `<table key="pubkey"><elem key="type">${esc(p.keyType)}</elem><elem key="bits">${esc(p.bits)}</elem></table>` +
      `<table key="validity"><elem key="notBefore">${esc(p.notBefore)}</elem><elem key="notAfter">${esc(p.notAfter)}</elem></table></script>` +
      `<script id="ssh-hostkey" output="k"><table><elem key="fingerprint">7b8986d3058f8829585444d4400f6eea</elem></table></script>${p.protocolScripts.join('')}</port>\n`,
  )

const hostXml = fc
  .record({ start: seconds, ports: fc.array(portXml, { minLength: 1, maxLength: 3 }) })
  .map(({ start, ports }) => `<host starttime="${esc(start)}"><status state="up"/><address addr="192.0.2.1" addrtype="ipv4"/><ports>${ports.join('')}</ports></host>\n`)

describe('nmap XML: events are canonical as emitted', () => {
  it('normalize() changes nothing in any event, whatever the attribute values', async () => {
    let withProtocols = 0
    await fc.assert(
      fc.asyncProperty(seconds, fc.array(hostXml, { minLength: 1, maxLength: 3 }), printable, async (start, hosts, runStart) => {
        const xml = `<?xml version="1.0"?>\n<nmaprun scanner="nmap" start="${esc(start)}">\n${hosts.join('')}</nmaprun>\n`
        // runStart is the caller's: not checked by anyone before, so any text may come.
        const { events } = await convertText(nmapXml, xml, { runStart: runStart === '' ? '2024-01-01T00:00:00Z' : runStart })
        for (const event of events) {
          if ('mysql' in event || 'redis' in event || 'mongodb' in event || 'vnc' in event || 'smtp' in event || 'kex_algorithms' in event.ssh) withProtocols++
          const again = normalize(structuredClone(event), { fingerprint: 'keep' })
          expect(again.ok && serializeEvent(again.event)).toBe(serializeEvent(event))
        }
      }),
      { numRuns: 150, seed: 11 },
    )
    // The protocol scripts did reach the events (else this property would say nothing of them).
    expect(withProtocols).toBeGreaterThan(50)
  })
})
