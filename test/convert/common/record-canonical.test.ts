/**
 * The Shodan and Censys converters vouch that their drafts are canonical
 * (src/convert/common/canonical.ts), so finishEvent skips the strict check. Property: whatever
 * the numbers, names and times in a record (`-0`, out of range, Object.prototype names), every
 * event they emit is exactly what normalize() makes of it.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { censys } from '../../../src/convert/censys/index.js'
import { shodan } from '../../../src/convert/shodan/index.js'
import type { Converter } from '../../../src/convert/types.js'
import { normalize, serializeEvent } from '../../../src/normalize/index.js'
import { convertText } from '../../support/golden.js'

/** JSON values as text, so that `-0` stays `-0`. */
const number = fc.constantFrom('-0', '0', '200', '999', '1000', '-1', '1.5', '"200"', '"-0"', '4294967296', '99999999999999999999', '"x"', 'null')
const coordinate = fc.constantFrom('-0', '0', '45.5', '-91', '180', '"-0"', '"12.5"', 'null')
const name = fc.constantFrom('"rsa"', '"RSA"', '"constructor"', '"__proto__"', '"toString"', '"ECDHE-RSA-AES128-GCM-SHA256"', '""', '7')
const time = fc.constantFrom('"2024-05-01T12:34:56.789012"', '"2024-05-01T12:34:56Z"', '""', '1700000000', '"2024-02-30T00:00:00"', 'null')
const asn1 = fc.constantFrom('"20240101000000Z"', '"240101000000Z"', '""', '"20240230000000Z"', '"x"')
const version = fc.constantFrom('"2.0"', '"1.99"', '"-0"', '"99999999999999999999"', '""')
const runStart = fc.oneof(fc.constant('2024-01-01T00:00:00Z'), fc.stringMatching(/^[ -~]{0,12}$/))

const shodanBanner = fc
  .record({ status: number, bits: number, asn: number, lat: coordinate, lon: coordinate, cipher: name, key: name, time, issued: asn1, cvss: number })
  .map(
    (v) =>
      `{"ip_str":"192.0.2.1","port":443,"timestamp":${v.time},"_shodan":{"module":"https"},"data":"HTTP/1.1 200 OK\\r\\nServer: x\\r\\nContent-Length: 5\\r\\n\\r\\n",` +
      `"http":{"status":${v.status},"title":"t"},"ssl":{"versions":["TLSv1.2"],"cipher":{"name":${v.cipher}},"cert":{"subject":{"CN":"a"},"pubkey":{"type":${v.key},"bits":${v.bits}},"issued":${v.issued},"expires":${v.issued}}},` +
      `"location":{"latitude":${v.lat},"longitude":${v.lon}},"asn":${v.asn},"vulns":{"CVE-2024-1":{"verified":true,"cvss":${v.cvss}}}}`,
  )

const sshBanner = fc.record({ version, time }).map((v) => `{"ip_str":"192.0.2.2","port":22,"timestamp":${v.time},"data":"SSH-${JSON.parse(v.version)}-OpenSSH_9.6\\r\\n","ssh":{"fingerprint":"aa"}}`)

const censysHost = fc
  .record({ status: number, size: number, bits: number, asn: number, lat: coordinate, lon: coordinate, cipher: name, key: name, time, version })
  .map(
    (v) =>
      `{"ip":"192.0.2.3","location":{"coordinates":{"latitude":${v.lat},"longitude":${v.lon}}},"autonomous_system":{"asn":${v.asn}},"services":[` +
      `{"port":443,"observed_at":${v.time},"service_name":"HTTP","http":{"response":{"status_code":${v.status},"body_size":${v.size},"headers":{"Content_Length":["5"]}}},` +
      `"tls":{"cipher_selected":${v.cipher},"certificates":{"leaf_data":{"pubkey_algorithm":${v.key},"pubkey_bit_size":${v.bits}}}}},` +
      `{"port":22,"observed_at":${v.time},"service_name":"SSH","ssh":{"endpoint_id":{"protocol_version":${v.version}}}}]}`,
  )

async function emittedAsNormalized(converter: Converter, lines: string[], start: string): Promise<number> {
  const { events } = await convertText(converter, `${lines.join('\n')}\n`, { runStart: start === '' ? '2024-01-01T00:00:00Z' : start })
  for (const event of events) {
    const again = normalize(structuredClone(event), { fingerprint: 'keep' })
    expect(again.ok && serializeEvent(again.event)).toBe(serializeEvent(event))
  }
  return events.length
}

describe('Shodan and Censys: events are canonical as emitted', () => {
  it('Shodan: normalize() changes nothing in any event', async () => {
    let seen = 0
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(shodanBanner, sshBanner), { minLength: 1, maxLength: 4 }), runStart, async (lines, start) => {
        seen += await emittedAsNormalized(shodan, lines, start)
      }),
      { numRuns: 200, seed: 19 },
    )
    expect(seen).toBeGreaterThan(200)
  })

  it('Censys: normalize() changes nothing in any event', async () => {
    let seen = 0
    await fc.assert(
      fc.asyncProperty(fc.array(censysHost, { minLength: 1, maxLength: 3 }), runStart, async (lines, start) => {
        seen += await emittedAsNormalized(censys, lines, start)
      }),
      { numRuns: 200, seed: 19 },
    )
    expect(seen).toBeGreaterThan(200)
  })
})
