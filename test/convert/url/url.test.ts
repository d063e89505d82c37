import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { urlOutput } from '../../../src/convert/output/index.js'
import { url } from '../../../src/convert/url/index.js'
import { isStrictValid } from '../../../src/validate/index.js'
import { convertText, goldenSuite } from '../../support/golden.js'
import { hostName, hostport, ip, port, writeHostports } from '../../support/net-arbitraries.js'

goldenSuite(url, { dir: 'url', ext: 'txt' })

describe('url lines', () => {
  it('uses default ports per scheme; https adds tls and ssl.enabled', async () => {
    const { events } = await convertText(url, 'https://a.example.com/x\nhttp://b.example.com\n')
    expect(events[0]).toMatchObject({ host: 'a.example.com', port: '443', transport: ['tcp', 'tls', 'http'], protocol: 'https', ssl: { enabled: true }, http: { url: '/x' } })
    expect(events[1]).toMatchObject({ host: 'b.example.com', port: '80', transport: ['tcp', 'http'], ssl: { enabled: false } })
  })

  it('round-trips http(s) URLs through the url output', async () => {
    const input = ['https://a.example.com/x?y=1', 'http://b.example.com:8080/', 'https://[2001:db8::1]:8443/p']
    const { events } = await convertText(url, input.join('\n'))
    expect(events.map((e) => urlOutput.format(e))).toEqual(['https://a.example.com/x?y=1', 'http://b.example.com:8080', 'https://[2001:db8::1]:8443/p'])
  })
})

describe('url property: hostport output is exactly the ip:port pairs of the URLs', () => {
  const record = fc.record({ address: fc.oneof(ip, hostName), port: fc.option(port, { nil: undefined }), https: fc.boolean(), path: fc.constantFrom('', '/', '/a/b', '/x?y=1') })
  it('holds for generated lists', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(record, { maxLength: 15 }), async (records) => {
        const text = records
          .map((r) => `${r.https ? 'https' : 'http'}://${r.address.includes(':') ? `[${r.address}]` : r.address}${r.port === undefined ? '' : `:${r.port}`}${r.path}\n`)
          .join('')
        const { events, problems } = await convertText(url, text)
        expect(problems).toEqual([])
        for (const e of events) expect(isStrictValid(e)).toBe(true)
        expect(writeHostports(events)).toEqual(records.map((r) => hostport(r.address, r.port ?? (r.https ? 443 : 80))))
      }),
      { numRuns: 100 },
    )
  })
})
