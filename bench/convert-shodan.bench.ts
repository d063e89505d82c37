/**
 * Shodan banners, gzip-compressed as `shodan download` writes them → event documents:
 * throughput as a ratio of gunzip + readLines + JSON.parse of the same file, and peak RSS
 * (default ~100 MB of banners before compression; L9KIT_BENCH_MB to change it).
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { shodan } from '../src/convert/shodan/index.js'
import { gzipBench, noise } from './support/gzip-convert.js'

// A leaf certificate in PEM, as Shodan's `ssl.chain` holds (the typical fixture's).
const CORPUS = fileURLToPath(new URL('../corpus/tools/shodan/typical.jsonl', import.meta.url))
let pem: string | undefined
const PEM = () => (pem ??= (JSON.parse(readFileSync(CORPUS, 'utf8').split('\n')[0]!) as { ssl: { chain: string[] } }).ssl.chain[0]!)

const PRODUCTS: [string, string][] = [['nginx', '1.18.0'], ['Apache httpd', '2.4.58'], ['Microsoft IIS httpd', '10.0'], ['OpenResty', '1.21.4.3']]
const TITLES = ['Welcome to nginx!', 'Index of /', 'Kibana', 'Grafana', 'Login', '']
const COUNTRIES: [string, string, string][] = [['NL', 'Netherlands', 'Amsterdam'], ['US', 'United States', 'Ashburn'], ['DE', 'Germany', 'Frankfurt am Main'], ['JP', 'Japan', 'Tokyo']]

/** The i-th banner: HTTP(S) mostly, a third with TLS and a certificate chain, some SSH. */
function record(i: number): string {
  const tls = i % 3 === 0
  const ssh = i % 10 === 7
  const [product, version] = PRODUCTS[i % PRODUCTS.length]!
  const [cc, country, city] = COUNTRIES[i % COUNTRIES.length]!
  const micros = String(i % 1_000_000).padStart(6, '0')
  const ip = `198.51.${(i >> 8) & 255}.${i & 255}`
  const base = {
    hash: (i * 2654435761) | 0,
    ip: (198 << 24) + (51 << 16) + (i & 0xffff),
    ip_str: ip,
    port: ssh ? 22 : tls ? 443 : 80,
    transport: 'tcp',
    timestamp: `2024-09-${String(1 + (i % 28)).padStart(2, '0')}T${String(i % 24).padStart(2, '0')}:03:07.${micros}`,
    hostnames: i % 2 ? [`h${i % 50_000}.example${i % 97}.com`] : [],
    domains: i % 2 ? [`example${i % 97}.com`] : [],
    org: `Example Hosting ${i % 13}`,
    isp: `Example ISP ${i % 7}`,
    asn: `AS${64500 + (i % 20)}`,
    location: { city, region_code: null, area_code: null, longitude: 4.88969 + (i % 10), latitude: 52.37403 - (i % 10), country_code: cc, country_name: country, postal_code: null, dma_code: null },
    _shodan: { crawler: 'bench0000', ptr: true, id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, module: ssh ? 'ssh' : tls ? 'https' : 'http', options: {} },
    opts: {},
  }
  if (ssh) {
    return JSON.stringify({ ...base, product: 'OpenSSH', version: '8.2p1 Ubuntu-4ubuntu0.5', cpe23: ['cpe:2.3:a:openbsd:openssh:8.2p1'], data: 'SSH-2.0-OpenSSH_8.2p1 Ubuntu-4ubuntu0.5\nKey type: ssh-ed25519\nKey: AAAAC3NzaC1lZDI1NTE5AAAAIO32CWAiAa6A/GB03GDJ2peBFOhlHPysLgMOp77vmlGe\n', ssh: { hassh: 'b12d2871a1189eff20364cf5333619ee', fingerprint: '86:91:c5:eb:cd:1c:e4:a0:c1:74:d2:84:ba:48:59:9a', key: 'AAAAC3NzaC1lZDI1NTE5AAAAIO32CWAiAa6A/GB03GDJ2peBFOhlHPysLgMOp77vmlGe', type: 'ssh-ed25519' } })
  }
  const title = TITLES[i % TITLES.length]!
  const data = `HTTP/1.1 200 OK\r\nServer: ${product}/${version}\r\nDate: Mon, 23 Sep 2024 12:03:07 GMT\r\nContent-Type: text/html\r\nContent-Length: ${500 + (i % 9000)}\r\nConnection: keep-alive\r\nSet-Cookie: sid=${i.toString(36)}; Path=/; HttpOnly\r\nX-Frame-Options: SAMEORIGIN\r\n\r\n`
  const r: Record<string, unknown> = {
    ...base,
    product,
    version,
    cpe23: [`cpe:2.3:a:example:${product.split(' ')[0]!.toLowerCase()}:${version}`],
    data,
    http: { status: 200, title, host: ip, location: '/', server: `${product}/${version}`, html: `<html><head><title>${title}</title></head><body>${'<p>lorem ipsum dolor sit amet</p>'.repeat(10)}<!-- ${noise(i, 400)} --></body></html>`, html_hash: i, favicon: i % 4 ? null : { hash: -1506612951, location: `http://${ip}/favicon.ico` }, components: {}, redirects: [] },
    tags: i % 5 === 0 ? ['cloud'] : [],
  }
  if (tls) {
    r.ssl = {
      cipher: { version: 'TLSv1/SSLv3', bits: 256, name: 'ECDHE-RSA-AES256-GCM-SHA384' },
      versions: ['TLSv1.2', 'TLSv1.3', '-TLSv1', '-SSLv3', '-TLSv1.1'],
      jarm: '27d40d40d29d40d1dc42d43d00041d4689ee210389f4f6b4b5b1b93f92252d',
      cert: { sig_alg: 'sha256WithRSAEncryption', issued: '20240701000000Z', expires: '20240929235959Z', expired: false, version: 2, fingerprint: { sha256: (i * 2654435761).toString(16).padStart(16, '0').repeat(4).slice(0, 64), sha1: '00' }, serial: i, subject: { CN: `h${i % 50_000}.example${i % 97}.com` }, pubkey: { type: 'rsa', bits: 2048 }, issuer: { CN: 'R3', O: "Let's Encrypt", C: 'US' } },
      chain: [PEM()],
    }
  }
  if (i % 50 === 0) r.vulns = { 'CVE-2021-23017': { verified: i % 100 === 0, cvss: 7.7, summary: 'A security issue in the resolver.' } }
  return JSON.stringify(r)
}

await gzipBench({ name: 'shodan', converter: shodan, record, self: import.meta.url })
