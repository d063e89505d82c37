import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { nmapXml } from '../../../src/convert/nmap/index.js'
import { hostportOutput, isSkip } from '../../../src/convert/output/index.js'
import type { Event } from '../../../src/schema/index.js'
import { isStrictValid } from '../../../src/validate/index.js'
import { convertText } from '../../support/golden.js'

const pair = (ip: string, port: number | string) => (ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`)
const hostports = (events: Event[]) => events.map((e) => hostportOutput.format(e)).filter((t): t is string => !isSkip(t))

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/\n/g, '&#xa;')

const doc = (hosts: string, start = '1700000000') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE nmaprun>\n<nmaprun scanner="nmap" args="nmap x" start="${start}" version="7.94" xmloutputversion="1.05">\n${hosts}\n<runstats><finished time="1700000100"/></runstats>\n</nmaprun>\n`

const host = (ip: string, ports: string, attrs = ' starttime="1700000001" endtime="1700000009"', state = 'up') =>
  `<host${attrs}><status state="${state}" reason="syn-ack"/>\n<address addr="${ip}" addrtype="${ip.includes(':') ? 'ipv6' : 'ipv4'}"/>\n<hostnames>\n</hostnames>\n<ports>${ports}</ports>\n</host>`

const port = (id: number, state = 'open', service = '', protocol = 'tcp') =>
  `<port protocol="${protocol}" portid="${id}"><state state="${state}" reason="syn-ack" reason_ttl="64"/>${service}</port>\n`

describe('nmap XML: detection', () => {
  it('recognises nmap and masscan XML, nothing else', () => {
    expect(nmapXml.detect('<?xml version="1.0"?>\n<!DOCTYPE nmaprun>\n<?xml-stylesheet href="x"?>\n')).toBe(true)
    expect(nmapXml.detect('<?xml version="1.0"?>\n<!-- masscan v1.0 scan -->\n<nmaprun scanner="masscan" start="1">')).toBe(true)
    expect(nmapXml.detect('{"ip":"192.0.2.1","ports":[]}')).toBe(false)
    expect(nmapXml.detect('<?xml version="1.0"?><rss version="2.0">')).toBe(false)
  })
})

describe('nmap XML: mapping', () => {
  it('one event per open port; closed, filtered and open|filtered ports give none', async () => {
    const xml = doc(host('192.0.2.1', port(22) + port(23, 'closed') + port(25, 'filtered') + port(161, 'open|filtered', '', 'udp') + port(53, 'open', '', 'udp')))
    const { events, problems } = await convertText(nmapXml, xml)
    expect(problems).toEqual([])
    expect(hostports(events)).toEqual(['192.0.2.1:22', '192.0.2.1:53'])
    expect(events.map((e) => e.transport)).toEqual([['tcp'], ['udp']])
    expect(events.every(isStrictValid)).toBe(true)
  })

  it('down hosts and hosts without open ports give no event', async () => {
    const xml = doc(host('192.0.2.1', port(22), '', 'down') + host('192.0.2.2', port(80, 'closed')) + host('192.0.2.3', ''))
    expect(await convertText(nmapXml, xml)).toEqual({ events: [], problems: [] })
  })

  it('takes the host start time, else the run start', async () => {
    const xml = doc(host('192.0.2.1', port(22)) + host('192.0.2.2', port(22), ''), '1700000000')
    const { events } = await convertText(nmapXml, xml)
    expect(events.map((e) => e.time)).toEqual(['2023-11-14T22:13:21Z', '2023-11-14T22:13:20Z'])
  })

  it('user host names go to host, PTR names to reverse; more of them to the summary', async () => {
    const names =
      '<hostnames>\n<hostname name="a.example" type="user"/>\n<hostname name="b.example" type="user"/>\n<hostname name="ptr.example" type="PTR"/>\n</hostnames>'
    const xml = doc(host('192.0.2.1', port(22)).replace('<hostnames>\n</hostnames>', names))
    const [event] = (await convertText(nmapXml, xml)).events
    expect([event?.host, event?.reverse]).toEqual(['a.example', 'ptr.example'])
    expect(event?.summary).toContain('Other hostnames: b.example (user)')
  })

  it('tunnel="ssl" adds tls, ssl.enabled and ssl.detected; ssl/http is https', async () => {
    const service = '<service name="http" product="nginx" version="1.24.0" tunnel="ssl" method="probed" conf="10"><cpe>cpe:/a:igor_sysoev:nginx:1.24.0</cpe></service>'
    const [event] = (await convertText(nmapXml, doc(host('192.0.2.1', port(443, 'open', service))))).events
    expect(event?.transport).toEqual(['tcp', 'tls', 'http'])
    expect(event?.protocol).toBe('https')
    expect([event?.ssl.enabled, event?.ssl.detected]).toEqual([true, true])
    expect(event?.service.software).toEqual({ name: 'nginx', version: '1.24.0', os: '', modules: null, fingerprint: 'cpe:/a:igor_sysoev:nginx:1.24.0' })
    expect(event?.summary).toBe('443/tcp open ssl/http nginx 1.24.0')
  })

  it('a script output appears in the summary as nmap prints it', async () => {
    const script = `<script id="ssh-auth-methods" output="${esc('\n  Supported authentication methods: \n    publickey\n')}"/>`
    const [event] = (await convertText(nmapXml, doc(host('192.0.2.1', port(22, 'open', script))))).events
    expect(event?.summary).toBe('22/tcp open\n| ssh-auth-methods: \n|   Supported authentication methods: \n|_    publickey')
  })

  it('an IP protocol scan (-sO) lists protocols, not services: no event, no problem', async () => {
    const xml = doc(host('192.0.2.1', port(1, 'open', '<service name="icmp" conf="8" method="table"/>', 'ip') + port(6, 'open', '', 'ip')))
    expect(await convertText(nmapXml, xml)).toEqual({ events: [], problems: [] })
  })

  it('ignores unknown elements and attributes', async () => {
    const xml = doc(`<future a="1"><x/></future>\n${host('192.0.2.1', port(22).replace('<state', '<unknown z="1"/><state'))}`)
    expect(hostports((await convertText(nmapXml, xml)).events)).toEqual(['192.0.2.1:22'])
  })
})

describe('nmap XML: damage', () => {
  it('a cut inside a host is reported with its element path; earlier hosts are kept', async () => {
    const full = doc(host('192.0.2.1', port(22)) + host('192.0.2.2', port(80) + port(443)))
    const cut = full.slice(0, full.indexOf('portid="443"'))
    const { events, problems } = await convertText(nmapXml, cut)
    expect(hostports(events)).toEqual(['192.0.2.1:22'])
    expect(problems).toHaveLength(1)
    expect(problems[0]?.where).toBe('/nmaprun/host[2]/ports')
    expect(problems[0]?.line).toBe(10) // where <host> starts
  })

  it('an interrupted scan (no </nmaprun>) loses nothing and is not a problem', async () => {
    const full = doc(host('192.0.2.1', port(22)))
    const { events, problems } = await convertText(nmapXml, full.slice(0, full.indexOf('<runstats>')))
    expect([hostports(events), problems]).toEqual([['192.0.2.1:22'], []])
  })

  it('input that is not nmap XML is one problem', async () => {
    expect((await convertText(nmapXml, '')).problems.map((p) => p.reason)).toEqual(['no <nmaprun> element: not nmap XML output'])
    expect((await convertText(nmapXml, 'hello')).problems).toHaveLength(1)
  })

  it('a port number out of range is a problem for that port only', async () => {
    const { events, problems } = await convertText(nmapXml, doc(host('192.0.2.1', port(22) + port(70000))))
    expect(hostports(events)).toEqual(['192.0.2.1:22'])
    expect(problems.map((p) => [p.where, p.reason])).toEqual([['/nmaprun/host[1]/ports/port[2]', "'70000' is not a port number"]])
  })

  it('UTF-8 split across chunks decodes intact', async () => {
    const xml = doc(host('192.0.2.1', port(80, 'open', '<script id="http-title" output="Café ☕"><elem key="title">Café ☕</elem></script>')))
    const bytes = Buffer.from(xml)
    const at = bytes.indexOf(Buffer.from('☕')) + 1
    const [event] = (await convertText(nmapXml, [bytes.subarray(0, at), bytes.subarray(at)])).events
    expect(event?.http.title).toBe('Café ☕')
  })
})

// --- property: converting then writing hostport gives exactly the open ip:port pairs -----------

const text = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('Café', '☕ <b>&"x"</b>', 'a\nb', ''))
const arbService = fc.record({
  name: fc.constantFrom('http', 'ssh', 'https', 'unknown', 'tcpwrapped', 'domain'),
  product: text,
  version: text,
  tunnel: fc.constantFrom('', 'ssl'),
  method: fc.constantFrom('probed', 'table'),
})
const arbPort = fc.record({
  protocol: fc.constantFrom('tcp', 'udp', 'sctp'),
  portid: fc.integer({ min: 0, max: 65535 }),
  state: fc.constantFrom('open', 'open', 'closed', 'filtered', 'open|filtered'),
  service: fc.option(arbService, { nil: undefined }),
  title: fc.option(text, { nil: undefined }),
})
const arbHost = fc.record({
  ip: fc.oneof(fc.ipV4(), fc.ipV6()),
  state: fc.constantFrom('up', 'up', 'down'),
  starttime: fc.option(fc.integer({ min: 0, max: 4_000_000_000 }), { nil: undefined }),
  names: fc.array(fc.record({ name: fc.domain(), type: fc.constantFrom('user', 'PTR') }), { maxLength: 3 }),
  ports: fc.uniqueArray(arbPort, { selector: (p) => `${p.protocol}/${p.portid}`, maxLength: 6 }),
})
type ArbHost = typeof arbHost extends fc.Arbitrary<infer T> ? T : never

function renderHost(h: ArbHost): string {
  const ports = h.ports
    .map((p) => {
      const service = p.service
        ? `<service name="${p.service.name}" product="${esc(p.service.product)}" version="${esc(p.service.version)}"${p.service.tunnel ? ' tunnel="ssl"' : ''} method="${p.service.method}" conf="10"/>`
        : ''
      const script = p.title === undefined ? '' : `<script id="http-title" output="${esc(p.title)}"><elem key="title">${esc(p.title)}</elem>\n</script>`
      return port(p.portid, p.state, service + script, p.protocol)
    })
    .join('')
  const names = h.names.map((n) => `<hostname name="${n.name}" type="${n.type}"/>`).join('\n')
  const attrs = h.starttime === undefined ? '' : ` starttime="${h.starttime}" endtime="${h.starttime + 5}"`
  return host(h.ip, ports, attrs, h.state).replace('<hostnames>\n</hostnames>', `<hostnames>\n${names}\n</hostnames>`)
}

/** The input cut at arbitrary points, so element and character boundaries fall anywhere. */
function split(text: string, cuts: number[]): Buffer[] {
  const bytes = Buffer.from(text)
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)
  const parts: Buffer[] = []
  let last = 0
  for (const p of [...points, bytes.length]) {
    parts.push(bytes.subarray(last, p))
    last = p
  }
  return parts
}

describe('nmap XML: property', () => {
  it('hostport of the events is exactly the open ip:port pairs of up hosts, in order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(arbHost, { maxLength: 5 }), fc.array(fc.nat(), { maxLength: 6 }), async (hosts, cuts) => {
        const { events, problems } = await convertText(nmapXml, split(doc(hosts.map(renderHost).join('\n')), cuts))
        const expected = hosts.filter((h) => h.state !== 'down').flatMap((h) => h.ports.filter((p) => p.state === 'open').map((p) => pair(h.ip, p.portid)))
        expect(problems).toEqual([])
        expect(hostports(events)).toEqual(expected)
        expect(events.every(isStrictValid)).toBe(true)
      }),
      { numRuns: 150 },
    )
  })
})
