/**
 * nmap XML → event documents: throughput (MB/s of input) and peak RSS, on a generated `-oX`
 * file (default ~100 MB; L9KIT_BENCH_MB=500 for the size). Baseline in the same run:
 * the same file through the SAX parser (saxes) with no handlers, i.e. decoding and
 * tokenising alone; and a second ceiling, saxes plus serialising the same events (built once,
 * outside the timing): serialising is work every conversion must do. Peak RSS includes tsx's own ~75 MB (the built CLI has less). The file is written by a child process (`… convert-nmap.bench.ts
 * generate FILE`), so its memory is not counted. L9KIT_BENCH_ROUNDS (default 3): alternate runs of each.
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { SaxesParser } from 'saxes'
import { nmapXml } from '../src/convert/nmap/index.js'
import { isProblem } from '../src/convert/types.js'
import { serializeEvent } from '../src/normalize/index.js'
import type { Event } from '../src/schema/index.js'
import { cpuSecondsSince, mb, peakRssMb, report } from './support/measure.js'

const targetMb = Number(process.env.L9KIT_BENCH_MB ?? 100)
/**
 * Conversions and baselines run alternately this many times each; the best of each counts.
 * On a shared machine one run of either swings by a third; alternating and keeping the best
 * compares the two at their least disturbed.
 */
const rounds = Math.max(1, Number(process.env.L9KIT_BENCH_ROUNDS ?? 3))

// A self-signed certificate's PEM body (any valid base64 will do for the SHA-256).
const PEM_BODY = Buffer.alloc(900, 7).toString('base64').match(/.{1,64}/g)!.join('&#xa;')
/** Host keys as nmap 7 writes them: the blob in base64 and its MD5, which the converter checks. */
function hostKeys(type: string, size: number, count: number): { key: string; md5: string }[] {
  return Array.from({ length: count }, (_, n) => {
    const blob = Buffer.concat([Buffer.from([0, 0, 0, type.length]), Buffer.from(type), Buffer.from([0, 0, 0, size]), Buffer.alloc(size, n + 1)])
    return { key: blob.toString('base64'), md5: createHash('md5').update(blob).digest('hex') }
  })
}
const ECDSA_KEYS = hostKeys('ecdsa-sha2-nistp256', 65, 10)
const ED25519_KEYS = hostKeys('ssh-ed25519', 32, 7)

const HEAD = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE nmaprun>
<?xml-stylesheet href="file:///usr/bin/../share/nmap/nmap.xsl" type="text/xsl"?>
<!-- Nmap 7.94SVN scan initiated Sat Nov 21 18:13:20 2026 as: nmap -sV -sC -oX bench.xml 198.51.0.0/16 -->
<nmaprun scanner="nmap" args="nmap -sV -sC -oX bench.xml 198.51.0.0/16" start="1795284800" startstr="Sat Nov 21 18:13:20 2026" version="7.94SVN" xmloutputversion="1.05">
<scaninfo type="syn" protocol="tcp" numservices="1000" services="1,3-4,6-7,9,13,17,19-26"/>
<verbose level="0"/>
<debugging level="0"/>
`
const TAIL = `<runstats><finished time="1795294800" timestr="Sat Nov 21 21:00:00 2026" elapsed="10000" exit="success"/><hosts up="1" down="0" total="1"/>
</runstats>
</nmaprun>
`

const ssh = (i: number) =>
  `<port protocol="tcp" portid="22"><state state="open" reason="syn-ack" reason_ttl="64"/><service name="ssh" product="OpenSSH" version="9.6p1 Ubuntu 3ubuntu13.${i % 9}" extrainfo="Ubuntu Linux; protocol 2.0" ostype="Linux" method="probed" conf="10"><cpe>cpe:/a:openbsd:openssh:9.6p1</cpe><cpe>cpe:/o:linux:linux_kernel</cpe></service><script id="ssh-hostkey" output="&#xa;  256 7b:89:86:d3:05:8f:88:29:58:54:44:d4:40:0f:6e:ea (ECDSA)&#xa;  256 c5:51:5a:c4:9e:50:dd:dd:5d:8c:e1:03:80:ae:4a:0b (ED25519)"><table>
<elem key="type">ecdsa-sha2-nistp256</elem>
<elem key="bits">256</elem>
<elem key="fingerprint">${ECDSA_KEYS[i % 10]!.md5}</elem>
<elem key="key">${ECDSA_KEYS[i % 10]!.key}</elem>
</table>
<table>
<elem key="type">ssh-ed25519</elem>
<elem key="bits">256</elem>
<elem key="fingerprint">${ED25519_KEYS[i % 7]!.md5}</elem>
<elem key="key">${ED25519_KEYS[i % 7]!.key}</elem>
</table>
</script></port>
`
const http = (i: number) =>
  `<port protocol="tcp" portid="80"><state state="open" reason="syn-ack" reason_ttl="64"/><service name="http" product="nginx" version="1.24.0" extrainfo="Ubuntu" ostype="Linux" method="probed" conf="10"><cpe>cpe:/a:igor_sysoev:nginx:1.24.0</cpe><cpe>cpe:/o:linux:linux_kernel</cpe></service><script id="http-server-header" output="nginx/1.24.0 (Ubuntu)"><elem>nginx/1.24.0 (Ubuntu)</elem>
</script><script id="http-title" output="Site ${i} &amp; friends"><elem key="title">Site ${i} &amp; friends</elem>
</script></port>
`
const https = (i: number, name: string) =>
  `<port protocol="tcp" portid="443"><state state="open" reason="syn-ack" reason_ttl="64"/><service name="http" product="nginx" version="1.24.0" extrainfo="Ubuntu" ostype="Linux" tunnel="ssl" method="probed" conf="10"><cpe>cpe:/a:igor_sysoev:nginx:1.24.0</cpe></service><script id="ssl-cert" output="Subject: commonName=${name}&#xa;Subject Alternative Name: DNS:${name}, DNS:www.${name}&#xa;Not valid before: 2026-11-21T20:02:59&#xa;Not valid after:  2027-02-19T20:02:59"><table key="subject">
<elem key="commonName">${name}</elem>
</table>
<table key="issuer">
<elem key="commonName">R${i % 11}</elem>
<elem key="organizationName">Let&apos;s Encrypt</elem>
</table>
<table key="pubkey">
<elem key="type">rsa</elem>
<elem key="bits">2048</elem>
<elem key="exponent">65537</elem>
</table>
<table key="extensions">
<table>
<elem key="name">X509v3 Subject Alternative Name</elem>
<elem key="value">DNS:${name}, DNS:www.${name}</elem>
</table>
</table>
<elem key="sig_algo">sha256WithRSAEncryption</elem>
<table key="validity">
<elem key="notBefore">2026-11-21T20:02:59</elem>
<elem key="notAfter">2027-02-19T20:02:59</elem>
</table>
<elem key="md5">81041a8f850edfe0e736ca62dfe5dff2</elem>
<elem key="sha1">b9b56ab69d9ee9451bba41fa2fe9451ee067a087</elem>
<elem key="pem">-----BEGIN CERTIFICATE-----&#xa;${PEM_BODY}${i % 10}&#xa;-----END CERTIFICATE-----&#xa;</elem>
</script></port>
`

/** The i-th host: up with 2–3 open ports (some IPv6, some with a MAC), one in nine down. */
function host(i: number): string {
  const start = 1795284801 + (i % 9000)
  if (i % 9 === 0) return `<host><status state="down" reason="no-response" reason_ttl="0"/>\n<address addr="198.51.${(i >> 8) & 255}.${i & 255}" addrtype="ipv4"/>\n<hostnames>\n</hostnames>\n</host>\n`
  const v6 = i % 7 === 0
  const ip = v6 ? `2001:db8:${(i % 65535).toString(16)}::${(i % 4093).toString(16)}` : `198.51.${(i >> 8) & 255}.${i & 255}`
  const name = `h${i}.example${i % 97}.com`
  const mac = v6 ? '' : `<address addr="52:54:00:${((i >> 16) & 255).toString(16).padStart(2, '0')}:${((i >> 8) & 255).toString(16).padStart(2, '0')}:${(i & 255).toString(16).padStart(2, '0')}" addrtype="mac" vendor="QEMU virtual NIC"/>\n`
  const ports = ssh(i) + (i % 3 === 0 ? '' : http(i)) + (i % 2 === 0 ? https(i, name) : '')
  return `<host starttime="${start}" endtime="${start + 30}"><status state="up" reason="syn-ack" reason_ttl="64"/>
<address addr="${ip}" addrtype="${v6 ? 'ipv6' : 'ipv4'}"/>
${mac}<hostnames>
<hostname name="${name}" type="user"/>
<hostname name="ptr-${i}.isp.example.net" type="PTR"/>
</hostnames>
<ports><extraports state="closed" count="996">
<extrareasons reason="reset" count="996" proto="tcp" ports="1,3-4,6-7,9,13,17,19-21,23-26,30,32-33,37,42-43,49,53,70,79,81-85,88-90"/>
</extraports>
${ports}<port protocol="tcp" portid="8080"><state state="closed" reason="reset" reason_ttl="64"/><service name="http-proxy" method="table" conf="3"/></port>
</ports>
<os><osmatch name="Linux 4.15 - 5.19" accuracy="100" line="69748"><osclass type="general purpose" vendor="Linux" osfamily="Linux" osgen="5.X" accuracy="100"><cpe>cpe:/o:linux:linux_kernel:5</cpe></osclass></osmatch></os>
<times srtt="211" rttvar="103" to="100000"/>
</host>
`
}

/** Open ports of host i, to check the conversion is complete. */
const openPorts = (i: number) => (i % 9 === 0 ? 0 : 1 + (i % 3 === 0 ? 0 : 1) + (i % 2 === 0 ? 1 : 0))

async function generate(file: string): Promise<string> {
  const out = createWriteStream(file)
  const target = targetMb * 1024 * 1024
  let bytes = 0
  let hosts = 0
  let events = 0
  const write = async (text: string) => {
    bytes += Buffer.byteLength(text)
    if (!out.write(text)) await new Promise<void>((resolve) => out.once('drain', () => resolve()))
  }
  await write(HEAD)
  while (bytes < target) {
    const batch: string[] = []
    for (let k = 0; k < 500; k++) {
      events += openPorts(hosts)
      batch.push(host(hosts++))
    }
    await write(batch.join(''))
  }
  await write(TAIL)
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())))
  return `${hosts} ${events}`
}

interface Timing {
  seconds: number
  cpu: number
}

async function baseline(file: string): Promise<Timing> {
  const start = process.hrtime.bigint()
  const cpu0 = process.cpuUsage()
  const parser = new SaxesParser({ xmlns: false })
  const decoder = new TextDecoder('utf-8')
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    const bytes = chunk as Buffer
    for (let at = 0; at < bytes.length; at += 1 << 16) parser.write(decoder.decode(bytes.subarray(at, at + (1 << 16)), { stream: true }))
  }
  parser.close()
  return { seconds: Number(process.hrtime.bigint() - start) / 1e9, cpu: cpuSecondsSince(cpu0) }
}

/** The least disturbed of two runs: shortest wall time and least CPU time, each on its own. */
const best = <T extends Timing>(a: T, b: T): T => ({ ...a, seconds: Math.min(a.seconds, b.seconds), cpu: Math.min(a.cpu, b.cpu) })

/** The events of a conversion, kept (untimed) for the serialising ceiling. */
async function collect(file: string): Promise<Event[]> {
  const events: Event[] = []
  const ctx = { runStart: '2026-11-21T18:13:20Z', fingerprint: 1 as const, maxLineBytes: 64 * 1024 * 1024 }
  for await (const item of nmapXml.convert(createReadStream(file, { highWaterMark: 1 << 20 }), ctx)) if (!isProblem(item)) events.push(item)
  return events
}

/** serializeEvent over `events`, as a conversion calls it on each. */
function serialiseAll(events: readonly Event[]): Timing {
  const start = process.hrtime.bigint()
  const cpu0 = process.cpuUsage()
  let outBytes = 0
  for (const e of events) outBytes += serializeEvent(e).length + 1
  if (outBytes < 0) console.log(outBytes)
  return { seconds: Number(process.hrtime.bigint() - start) / 1e9, cpu: cpuSecondsSince(cpu0) }
}

async function convert(file: string): Promise<Timing & { events: number; problems: number }> {
  // The converter imports its XML reader on first use: loaded here, untimed, as the baseline's
  // saxes is. Under tsx that load is a compile of ~20 modules (0.1–0.25 s CPU).
  await import('../src/convert/nmap/xml-reader.js')
  const start = process.hrtime.bigint()
  const cpu0 = process.cpuUsage()
  let events = 0
  let problems = 0
  let outBytes = 0
  const ctx = { runStart: '2026-11-21T18:13:20Z', fingerprint: 1 as const, maxLineBytes: 64 * 1024 * 1024 }
  for await (const item of nmapXml.convert(createReadStream(file, { highWaterMark: 1 << 20 }), ctx)) {
    if (isProblem(item)) problems++
    else {
      events++
      outBytes += serializeEvent(item).length + 1
    }
  }
  if (outBytes < 0) console.log(outBytes)
  return { seconds: Number(process.hrtime.bigint() - start) / 1e9, cpu: cpuSecondsSince(cpu0), events, problems }
}

async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'l9kit-bench-nmap-'))
  const file = join(dir, 'nmap.xml')
  try {
    const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), 'generate', file], { stdio: ['ignore', 'pipe', 'inherit'] })
    if (child.status !== 0) throw new Error(`generating the input failed (exit ${child.status})`)
    const [hosts, expected] = child.stdout.toString().trim().split(' ').map(Number) as [number, number]
    const size = statSync(file).size
    console.log(`convert-nmap: ${hosts} hosts, ${expected} open ports, ${mb(size).toFixed(1)} MB, mean ${(size / hosts).toFixed(0)} bytes/host`)
    // Convert first: peak RSS is the process's, so it is read before the baseline runs.
    let result = await convert(file)
    const rss = peakRssMb()
    if (result.events !== expected || result.problems !== 0) throw new Error(`converted ${result.events} of ${expected} open ports, ${result.problems} problems`)
    let parse = await baseline(file)
    for (let round = 1; round < rounds; round++) {
      result = best(result, await convert(file))
      parse = best(parse, await baseline(file))
    }
    const { seconds: parseSeconds, cpu: parseCpu } = parse
    let events: Event[] | undefined = await collect(file)
    let serialise = serialiseAll(events)
    for (let round = 1; round < rounds; round++) serialise = best(serialise, serialiseAll(events))
    events = undefined
    const ceilingSeconds = parseSeconds + serialise.seconds
    const ceilingCpu = parseCpu + serialise.cpu
    console.log(`best of ${rounds} alternate runs each`)
    report('saxes alone (decode + tokenise)', mb(size) / parseSeconds, 'MB/s')
    report('nmap XML convert (XML scan, normalise, fingerprint v1, serialise)', mb(size) / result.seconds, 'MB/s', { value: parseSeconds / result.seconds, baseline: 'saxes alone', target: '>= 0.60' })
    report('nmap XML convert', result.events / result.seconds, 'events/s')
    report('saxes + serialising the same events', mb(size) / ceilingSeconds, 'MB/s', { value: parseSeconds / ceilingSeconds, baseline: 'saxes alone' })
    report('nmap XML convert, wall time', mb(size) / result.seconds, 'MB/s', { value: ceilingSeconds / result.seconds, baseline: 'saxes + serialising', target: '>= 0.85' })
    report('nmap XML convert, CPU time', mb(size) / result.cpu, 'MB/s', { value: parseCpu / result.cpu, baseline: 'saxes alone, CPU time', target: '>= 0.60' })
    report('nmap XML convert, CPU time ', mb(size) / result.cpu, 'MB/s', { value: ceilingCpu / result.cpu, baseline: 'saxes + serialising, CPU time', target: '>= 0.85' })
    report('peak RSS (conversion)', rss, 'MB', { value: rss / 200, baseline: 'limit 200 MB', target: '< 1' })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[2] === 'generate') console.log(await generate(process.argv[3]!))
else await run()
