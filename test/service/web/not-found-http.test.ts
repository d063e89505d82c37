/** Unknown paths over real HTTP: a browser gets the web view's 404 page, API clients the JSON 404 as before. */
import { describe, expect, it } from 'vitest'
import { MemoryStore } from '../../../src/service/index.js'
import { schemaErrors, serveForTest, unlimitedConfig } from '../support.js'
import { BROWSER_ACCEPT, getRaw } from './http-get.js'

describe('unknown paths', async () => {
  const service = await serveForTest({ store: new MemoryStore(), config: unlimitedConfig() })

  it('answers a browser with a 404 page in the web view style, naming the path (escaped)', async () => {
    for (const path of ['/nothing-here', '/hosts/192.0.2.1', '/host/192.0.2.1/extra', '/a<b>&"c"?q=1']) {
      const answer = await getRaw(service.url, path, { accept: BROWSER_ACCEPT })
      expect(answer.status, path).toBe(404)
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(answer.headers.vary).toBe('accept, accept-encoding')
      expect(answer.headers['content-security-policy']).toContain("default-src 'none'")
      const html = answer.body.toString('utf8')
      expect(html).toMatch(/^<!DOCTYPE html>/)
      expect(html).toContain('<h1>404 Not Found</h1>')
      expect(html).toMatch(/<link rel="stylesheet" href="\/[^"]+\.css/)
      expect(html).toContain('href="/"')
      expect(html).not.toContain('<b>')
    }
    const escaped = await getRaw(service.url, '/a<b>', { accept: BROWSER_ACCEPT })
    expect(escaped.body.toString('utf8')).toContain('There is no page at &quot;/a&lt;b&gt;&quot;.')
  })

  it('answers HEAD from a browser with the page headers and no body', async () => {
    const answer = await getRaw(service.url, '/nothing-here', { accept: BROWSER_ACCEPT }, 'HEAD')
    expect([answer.status, answer.headers['content-type'], answer.body.length]).toEqual([404, 'text/html; charset=utf-8', 0])
  })

  it('keeps the JSON 404 for API clients and for methods other than GET and HEAD, marked as varying by accept', async () => {
    const cases: [string, Record<string, string>][] = [
      ['GET', {}],
      ['GET', { accept: 'application/json' }],
      ['GET', { accept: '*/*' }],
      ['GET', { accept: 'text/html, application/json' }], // a tie keeps JSON
      ['POST', { accept: BROWSER_ACCEPT }],
      ['DELETE', { accept: BROWSER_ACCEPT }],
    ]
    for (const [method, headers] of cases) {
      const answer = await getRaw(service.url, '/nothing-here', headers, method)
      const what = `${method} ${JSON.stringify(headers)}`
      expect(answer.status, what).toBe(404)
      expect(answer.headers['content-type'], what).toBe('application/json')
      expect(answer.headers.vary, what).toBe('accept')
      const body = JSON.parse(answer.body.toString('utf8'))
      expect(schemaErrors('error', body)).toEqual([])
      expect(body.title).toBe('Not Found')
      expect(body.description).toMatch(/^No such route; routes are GET \/host\/:ip/)
    }
  })
})
