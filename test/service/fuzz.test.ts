/** Random path segments never produce a 5xx or a body that is not JSON. */
import fc from 'fast-check'
import { request as httpRequest } from 'node:http'
import { describe, expect, it } from 'vitest'
import { loadBundled, MemoryStore } from '../../src/service/index.js'
import { serveForTest, unlimitedConfig } from './support.js'

/** Raw GET: the path is sent byte for byte (as latin1), as a hostile client could. */
function rawGet(base: string, path: string): Promise<{ status: number; type: string | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(base)
    const req = httpRequest({ host: url.hostname, port: url.port, path, agent: false, insecureHTTPParser: true }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], text: Buffer.concat(chunks).toString('utf8') }))
    })
    req.on('error', reject)
    req.end()
  })
}

const segment = fc.oneof(
  fc.ipV4(),
  fc.ipV6(),
  fc.domain(),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('..', '.', '%00', '%', '%zz', '%E0%A4%A', '%2e%2e', '%2F', '::ffff:%31.2.3.4', '[::1]', '1.2.3.4%00', 'ex%41mple.com', ''),
  fc.integer({ min: 1, max: 20_000 }).map((n) => 'a'.repeat(n)),
  fc.array(fc.constantFrom('a', '.', '-', '_', ':', '%', '1', 'Z', 'é', '\u0000', '/'), { maxLength: 300 }).map((cs) => cs.join('')),
)

/** How the segment goes on the wire: percent-encoded, raw where the client allows it, or doubled. */
const spelling = fc.constantFrom('encoded', 'raw', 'double')
function spell(seg: string, how: string): string {
  if (how === 'encoded') return encodeURIComponent(seg)
  if (how === 'double') return encodeURIComponent(encodeURIComponent(seg))
  // Raw: only what an HTTP client can put in a request line (no controls, no spaces, latin1).
  return /^[\x21-\xff]*$/.test(seg) ? seg : encodeURIComponent(seg)
}

describe('path fuzzing', async () => {
  const store = new MemoryStore()
  await loadBundled(store)
  const service = await serveForTest({ store, config: unlimitedConfig() })

  it('never answers 5xx or a non-JSON body, whatever the path segment', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/host/', '/domain/', '/api/subdomains/', '/', '/admin/'), segment, spelling, async (route, seg, how) => {
        const answer = await rawGet(service.url, route + spell(seg, how))
        expect(answer.status, answer.text).toBeLessThan(500)
        expect(answer.type).toBe('application/json')
        expect(() => JSON.parse(answer.text)).not.toThrow()
      }),
      { numRuns: 200 },
    )
  })

  it('answers JSON 4xx for a request line too long to parse and for raw non-ASCII bytes', async () => {
    const long = await rawGet(service.url, '/domain/' + 'a'.repeat(30_000))
    expect(long.status).toBe(431)
    expect(JSON.parse(long.text)).toMatchObject({ title: 'Request Header Fields Too Large' })
    for (const path of ['/host/\xe9', '/domain/ex\xe4mple.com', '/api/subdomains/%C3%A9xample.com']) {
      const answer = await rawGet(service.url, path)
      expect(answer.status, path).toBeGreaterThanOrEqual(200)
      expect(answer.status, path).toBeLessThan(500)
      expect(answer.type).toBe('application/json')
      JSON.parse(answer.text)
    }
  })
})
