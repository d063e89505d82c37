import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { katana } from '../../../src/convert/katana/index.js'
import { urlOutput } from '../../../src/convert/output/url.js'
import { isStrictValid } from '../../../src/validate/index.js'
import { convertText, goldenSuite } from '../../support/golden.js'

goldenSuite(katana, { dir: 'katana', ext: 'jsonl' })

const line = (r: object) => `${JSON.stringify(r)}\n`

describe('katana mapping', () => {
  it('restores HTTP header names and leaves ip empty (katana records none)', async () => {
    const { events } = await convertText(katana, line({ response: { status_code: 200, headers: { content_type: 'text/html', x_frame_options: 'DENY' } }, request: { endpoint: 'https://a.example.com/x' } }))
    expect(events[0]).toMatchObject({ ip: '', host: 'a.example.com', port: '443', protocol: 'https', http: { url: '/x', status: 200 } })
    expect(Object.keys(events[0]!.http.header)).toEqual(['content-type', 'x-frame-options'])
  })
})

describe('katana property: the url output gives back every endpoint, whatever the member order', () => {
  const path = fc.stringMatching(/^\/[a-z0-9]{0,8}$/)
  it('holds for generated runs', async () => {
    const record = fc.record({ host: fc.constantFrom('a.example.com', 'b.example.org'), https: fc.boolean(), path, reversed: fc.boolean() })
    await fc.assert(
      fc.asyncProperty(fc.array(record, { maxLength: 8 }), async (records) => {
        const urls = records.map((r) => `${r.https ? 'https' : 'http'}://${r.host}${r.path}`)
        const text = records
          .map((r, i) => {
            const members: [string, unknown][] = [['timestamp', '2024-01-01T00:00:00Z'], ['request', { endpoint: urls[i] }], ['response', { status_code: 200 }]]
            return line(Object.fromEntries(r.reversed ? members.reverse() : members))
          })
          .join('')
        const { events, problems } = await convertText(katana, text)
        expect(problems).toEqual([])
        for (const e of events) expect(isStrictValid(e)).toBe(true)
        expect(events.map((e) => urlOutput.format(e))).toEqual(urls.map((u) => (u.endsWith('/') ? u.slice(0, -1) : u)))
      }),
      { numRuns: 100 },
    )
  })
})
