import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sx } from '../../../src/convert/sx/index.js'
import { isStrictValid } from '../../../src/validate/index.js'
import { convertText, goldenSuite } from '../../support/golden.js'
import { hostport, ip, port, writeHostports } from '../../support/net-arbitraries.js'

goldenSuite(sx, { dir: 'sx', ext: ['txt', 'jsonl'] })

describe('sx mapping', () => {
  it('reads ARP results (mac, vendor, no port) in both spellings', async () => {
    const { events } = await convertText(sx, '192.168.0.1          9C:A2:F4:11:22:33    TP-LINK TECHNOLOGIES CO.,LTD.\n{"ip":"192.168.0.2","mac":"00:11:22:33:44:55","vendor":"Apple, Inc."}\n')
    expect(events.map((e) => [e.ip, e.port, e.mac, e.vendor, e.transport])).toEqual([
      ['192.168.0.1', '', '9c:a2:f4:11:22:33', 'TP-LINK TECHNOLOGIES CO.,LTD.', ['arp']],
      ['192.168.0.2', '', '00:11:22:33:44:55', 'Apple, Inc.', ['arp']],
    ])
  })

  it('gives no event for a reply that says closed (RST, ICMP unreachable)', async () => {
    const { events, problems } = await convertText(sx, '{"scan":"tcpfin","ip":"192.0.2.1","port":22,"flags":"ar"}\n{"scan":"udp","ip":"192.0.2.1","icmp":{"type":3,"code":3}}\n')
    expect([events, problems]).toEqual([[], []])
  })
})

describe('sx property: plain and JSON lines give the same ip:port pairs', () => {
  it('holds for generated runs', async () => {
    const record = fc.record({ ip, port, json: fc.boolean() })
    await fc.assert(
      fc.asyncProperty(fc.array(record, { maxLength: 12 }), async (records) => {
        const text = records.map((r) => (r.json ? `${JSON.stringify({ scan: 'tcpsyn', ip: r.ip, port: r.port })}\n` : `${r.ip.padEnd(20)} ${String(r.port).padEnd(5)} \n`)).join('')
        const { events, problems } = await convertText(sx, text)
        expect(problems).toEqual([])
        for (const e of events) expect(isStrictValid(e)).toBe(true)
        expect(writeHostports(events)).toEqual(records.map((r) => hostport(r.ip, r.port)))
      }),
      { numRuns: 100 },
    )
  })
})
