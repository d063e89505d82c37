/**
 * nmap `ssh-hostkey` (src/convert/nmap/hostkey.ts): one key, whichever shape nmap wrote it in
 * (nmap 7's tree, nmap 6.x's tree with the key base64 twice, the text-only form), gives one
 * `ssh.fingerprint`, the one OpenSSH prints for it; a key that contradicts nmap's own MD5 is
 * reported, never written.
 */
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { nmapXml } from '../../../src/convert/nmap/index.js'
import type { Event } from '../../../src/schema/index.js'
import { convertFile, convertText, TOOLS_CORPUS } from '../../support/golden.js'
import { runCli } from '../../support/streams.js'

const FIXTURE = join(TOOLS_CORPUS, 'nmap-xml', 'ssh-hostkey.xml')

/** The RSA key of the fixture, as `ssh-keygen -l` prints its fingerprints (an independent reading). */
const RSA_SHA256 = 'SHA256:bFNDeKZwQjOLBiOoUg7uzMEusllFeJBoMuTQSU4ltBM'
const RSA_MD5 = 'MD5:af:66:cb:9b:4d:35:1c:3d:dd:bb:00:a0:dc:08:bf:ed'

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;').replace(/\n/g, '&#xa;')
const colons = (hex: string) => hex.match(/../g)!.join(':')

/** One port with this `ssh-hostkey` script result. */
async function port(output: string, tree = ''): Promise<{ event: Event; problems: string[] }> {
  const xml = `<?xml version="1.0"?>\n<nmaprun scanner="nmap" start="1700000000">\n<host><status state="up"/><address addr="192.0.2.1" addrtype="ipv4"/><ports><port protocol="tcp" portid="22"><state state="open"/><service name="ssh" method="probed"/><script id="ssh-hostkey" output="${esc(output)}">${tree}</script></port></ports></host>\n</nmaprun>\n`
  const { events, problems } = await convertText(nmapXml, xml)
  return { event: events[0]!, problems: problems.map((p) => p.reason) }
}

const table = (type: string, bits: number, md5: string, key: string) =>
  `<table><elem key="type">${type}</elem><elem key="bits">${bits}</elem><elem key="fingerprint">${md5}</elem><elem key="key">${key}</elem></table>`

describe('ssh-hostkey: one key, one fingerprint', () => {
  it('nmap 7 (tree), nmap 6.x (key base64 twice) and the text-only form give the fingerprint ssh-keygen prints', async () => {
    const { events, problems } = await convertFile(nmapXml, FIXTURE)
    const byIp = new Map(events.map((e) => [e.ip, e]))
    for (const ip of ['192.0.2.101', '192.0.2.102', '192.0.2.103', '192.0.2.106']) {
      expect(byIp.get(ip)!.ssh.fingerprint, ip).toBe(RSA_SHA256)
      expect(byIp.get(ip)!.ssh.key_type, ip).toBe('ssh-rsa')
      expect(byIp.get(ip)!.ssh.key, ip).toBe(byIp.get('192.0.2.101')!.ssh.key)
    }
    // Fingerprint lines only: nmap's MD5, with the prefix OpenSSH gives it.
    expect(byIp.get('192.0.2.104')!.ssh.fingerprint).toBe(RSA_MD5)
    expect(byIp.get('192.0.2.104')!.ssh.key).toBeUndefined()
    // The key beside another key's MD5: not written, and said.
    expect(byIp.get('192.0.2.105')!.ssh.key).toBeUndefined()
    expect(problems.map((p) => p.reason)).toEqual([expect.stringMatching(/^ssh-hostkey: the ssh-rsa key does not hash to the MD5 fingerprint nmap printed for it/)])
  })

  it('holds for any key: the three shapes agree with the SHA-256 of the blob', async () => {
    const blob = fc
      .tuple(fc.constantFrom('ssh-ed25519', 'ssh-rsa', 'ecdsa-sha2-nistp256', 'ssh-dss'), fc.uint8Array({ minLength: 8, maxLength: 300 }))
      .map(([type, body]) => {
        const head = Buffer.alloc(4)
        head.writeUInt32BE(type.length)
        return { type, blob: Buffer.concat([head, Buffer.from(type), body]) }
      })
    await fc.assert(
      fc.asyncProperty(blob, async ({ type, blob }) => {
        const b64 = blob.toString('base64')
        const md5 = createHash('md5').update(blob).digest('hex')
        const expected = `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`
        const line = `\n  256 ${colons(md5)} (KEY)`
        const seven = await port(line, table(type, 256, md5, b64))
        const six = await port(line, table(type, 256, md5, Buffer.from(b64).toString('base64')))
        const text = await port(`${line}\n  ${type} ${b64}`)
        for (const got of [seven, six, text]) {
          expect(got.problems).toEqual([])
          expect(got.event.ssh.fingerprint).toBe(expected)
          expect(got.event.ssh.key).toBe(b64)
          expect(got.event.ssh.key_type).toBe(type)
        }
      }),
      { numRuns: 60 },
    )
  })

  it('a mismatch is counted on standard error and the exit status says so', async () => {
    const r = await runCli(['convert', '--from', 'nmap-xml', '--run-start', '2024-01-02T03:04:05Z', FIXTURE])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/ssh-hostkey\.xml:\d+: \/nmaprun\/host\[5\]\/ports\/port\[1\]: ssh-hostkey: the ssh-rsa key does not hash/)
    expect(r.stderr.trim().split('\n').at(-1)).toBe('6 converted, 1 skipped')
  })
})
