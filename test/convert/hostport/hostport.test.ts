import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { hostport as hostportConverter } from '../../../src/convert/hostport/index.js'
import { isStrictValid } from '../../../src/validate/index.js'
import { convertText, goldenSuite } from '../../support/golden.js'
import { hostName, hostport, ip, port, writeHostports } from '../../support/net-arbitraries.js'

goldenSuite(hostportConverter, { dir: 'hostport', ext: 'txt' })

describe('hostport lines', () => {
  it('uses the run start as time and sets event_type and event_source', async () => {
    const { events } = await convertText(hostportConverter, '192.0.2.1:80\n', { runStart: '2030-01-01T00:00:00.5Z' })
    expect(events[0]).toMatchObject({ event_type: 'service', event_source: 'hostport', event_pipeline: ['hostport', 'l9kit'], time: '2030-01-01T00:00:00.5Z', ip: '192.0.2.1', port: '80', transport: ['tcp'] })
  })

  it('refuses an unbracketed IPv6 address with a port', async () => {
    const { problems } = await convertText(hostportConverter, '2001:db8::1:80\n')
    expect(problems[0]!.reason).toMatch(/brackets/)
  })
})

describe('hostport property: converting then writing hostport gives back the input pairs', () => {
  it('holds for generated lists', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.oneof(ip, hostName), port), { maxLength: 20 }), async (pairs) => {
        const expected = pairs.map(([a, p]) => hostport(a, p))
        const { events, problems } = await convertText(hostportConverter, expected.map((l) => `${l}\n`).join(''))
        expect(problems).toEqual([])
        for (const e of events) expect(isStrictValid(e)).toBe(true)
        expect(writeHostports(events)).toEqual(expected)
      }),
      { numRuns: 100 },
    )
  })
})
