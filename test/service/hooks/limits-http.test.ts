/**
 * Issue 33: the hook API's limits over real HTTP on 127.0.0.1. Caps per plan on watched
 * resources and hooks (409 past them, configurable), paged lists (the same `limit`/`cursor` and
 * `link` header for both), and bodies: an oversized `content-length` is refused before the body
 * is read, and a chunked body past the bound stops being read.
 */
import { connect, type Socket } from 'node:net'
import { describe, expect, it } from 'vitest'
import type { RunningService } from '../../../src/service/index.js'
import { call, expectCall, HOOK_KEYS, hookServiceConfig, serveHooks } from './support.js'

/** Every item of a list, following its `link` headers; the pages' sizes too. */
async function allPages(svc: RunningService, path: string, key: string, limit: number): Promise<{ ids: string[]; pages: number[] }> {
  const ids: string[] = []
  const pages: number[] = []
  let next: string | null = `${path}?limit=${limit}`
  while (next !== null && pages.length < 50) {
    const answer = await call(svc, 'GET', next, key)
    expect(answer.status, answer.text).toBe(200)
    const items = answer.json as { id: string }[]
    ids.push(...items.map((i) => i.id))
    pages.push(items.length)
    const link = answer.headers.link as string | undefined
    next = link === undefined ? null : /^<([^>]+)>; rel="next"$/.exec(link)![1]!
  }
  return { ids, pages }
}

describe('caps per plan', () => {
  it('refuses a watched resource or a hook past the plan’s cap with 409, per key, and says so', async () => {
    const svc = await serveHooks({ config: hookServiceConfig({ plans: { anonymous: { rate: null }, registered: { rate: null, resources: 2 }, pro: { rate: null, resources: 3, hooks: 2 } } }) })
    for (let n = 0; n < 2; n++) await expectCall(svc, 'POST', '/api/resources', HOOK_KEYS.reg, { type: 'ip', value: `192.0.2.${n}` }, 201)
    const refused = await call(svc, 'POST', '/api/resources', HOOK_KEYS.reg, { type: 'ip', value: '192.0.2.9' })
    expect(refused.status).toBe(409)
    expect(refused.json).toEqual({ title: 'Conflict', description: 'This key already has 2 watched resources, the most its plan (registered) allows; remove some first.' })
    for (let n = 0; n < 3; n++) await expectCall(svc, 'POST', '/api/resources', HOOK_KEYS.alice, { type: 'ip', value: `198.51.100.${n}` }, 201)
    await expectCall(svc, 'POST', '/api/resources', HOOK_KEYS.alice, { type: 'ip', value: '198.51.100.9' }, 409)
    await expectCall(svc, 'POST', '/api/resources', HOOK_KEYS.bob, { type: 'ip', value: '198.51.100.9' }, 201) // another key's count

    const url = 'http://127.0.0.1:9/hook'
    const first = await expectCall<{ id: string }>(svc, 'POST', '/api/hooks', HOOK_KEYS.alice, { url }, 201)
    await expectCall(svc, 'POST', '/api/hooks', HOOK_KEYS.alice, { url }, 201)
    const over = await call(svc, 'POST', '/api/hooks', HOOK_KEYS.alice, { url })
    expect(over.status).toBe(409)
    expect((over.json as { description: string }).description).toBe('This key already has 2 hooks, the most its plan (pro) allows; remove some first.')
    // Removing one makes room again.
    await expectCall(svc, 'DELETE', `/api/hooks/${first.id}`, HOOK_KEYS.alice, undefined, 204)
    await expectCall(svc, 'POST', '/api/hooks', HOOK_KEYS.alice, { url }, 201)
  })
})

describe('paged lists', () => {
  it('pages resources and hooks the same way: limit, cursor, a link to the next page, oldest first', async () => {
    const svc = await serveHooks()
    const resources: string[] = []
    for (let n = 0; n < 7; n++) resources.push((await expectCall<{ id: string }>(svc, 'POST', '/api/resources', HOOK_KEYS.alice, { type: 'ip', value: `192.0.2.${n}` }, 201)).id)
    await expectCall(svc, 'POST', '/api/resources', HOOK_KEYS.bob, { type: 'ip', value: '192.0.2.99' }, 201)
    expect(await allPages(svc, '/api/resources', HOOK_KEYS.alice, 3)).toEqual({ ids: resources, pages: [3, 3, 1] })
    expect(await allPages(svc, '/api/resources', HOOK_KEYS.alice, 7)).toEqual({ ids: resources, pages: [7] })

    const hooks: string[] = []
    for (let n = 0; n < 5; n++) hooks.push((await expectCall<{ id: string }>(svc, 'POST', '/api/hooks', HOOK_KEYS.alice, { url: `http://127.0.0.1:9/${n}` }, 201)).id)
    expect(await allPages(svc, '/api/hooks', HOOK_KEYS.alice, 2)).toEqual({ ids: hooks, pages: [2, 2, 1] })
    // Without parameters: the first 100, no link when that is all.
    const plain = await call(svc, 'GET', '/api/hooks', HOOK_KEYS.alice)
    expect((plain.json as unknown[]).length).toBe(5)
    expect(plain.headers.link).toBeUndefined()
  })

  it('answers 400 for a limit outside 1 to 1000 or a cursor it did not give', async () => {
    const svc = await serveHooks()
    for (const query of ['limit=0', 'limit=1001', 'limit=ten', 'cursor=abc', 'cursor=-1']) {
      for (const path of ['/api/resources', '/api/hooks']) {
        const answer = await call(svc, 'GET', `${path}?${query}`, HOOK_KEYS.alice)
        expect(answer.status, `${path}?${query}`).toBe(400)
        expect((answer.json as { description: string }).description).toMatch(/^The (limit|cursor) parameter/)
      }
    }
  })
})

/** Writes a request head on a raw socket and collects what the server answers. */
function rawRequest(svc: RunningService, head: string): { socket: Socket; answer: () => string; closed: Promise<void> } {
  const socket = connect(Number(new URL(svc.url).port), '127.0.0.1')
  let text = ''
  socket.on('data', (c: Buffer) => (text += c.toString('latin1')))
  socket.on('error', () => undefined)
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()))
  socket.write(head)
  return { socket, answer: () => text, closed }
}

// Bounds for a hang, generous for a busy machine (a test's own timeout is longer).
const waitUntil = async (ready: () => boolean, ms = 60_000) => {
  const end = Date.now() + ms
  while (!ready() && Date.now() < end) await new Promise((r) => setTimeout(r, 10))
  return ready()
}

describe('oversized bodies', () => {
  it('answers 413 from a content-length above 64 KiB before reading a byte of the body', async () => {
    const svc = await serveHooks()
    for (const path of ['/api/hooks', '/api/resources']) {
      // 50 MiB announced, nothing sent: the answer must not wait for the body.
      const { socket, answer } = rawRequest(svc, `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\napi-key: ${HOOK_KEYS.alice}\r\ncontent-type: application/json\r\ncontent-length: ${50 * 1024 * 1024}\r\n\r\n`)
      expect(await waitUntil(() => answer().includes('\r\n\r\n{'))).toBe(true)
      expect(answer()).toMatch(/^HTTP\/1\.1 413 /)
      expect(answer().toLowerCase()).toContain('connection: close')
      socket.destroy()
    }
  })

  it('stops reading a chunked body once it passes 64 KiB: answers 413 and closes, long before 50 MiB were sent', async () => {
    const svc = await serveHooks()
    const { socket, answer, closed } = rawRequest(svc, `POST /api/hooks HTTP/1.1\r\nhost: 127.0.0.1\r\napi-key: ${HOOK_KEYS.alice}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`)
    let isClosed = false
    void closed.then(() => (isClosed = true))
    const chunk = Buffer.alloc(64 * 1024, 0x20)
    const frame = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')])
    let sent = 0
    while (!isClosed && sent < 50 * 1024 * 1024) {
      const flushed = socket.write(frame)
      sent += chunk.length
      if (!flushed) await Promise.race([new Promise((r) => socket.once('drain', r)), closed, new Promise((r) => setTimeout(r, 2_000))])
    }
    await Promise.race([closed, new Promise((r) => setTimeout(r, 60_000))])
    expect(isClosed).toBe(true)
    expect(answer()).toMatch(/^HTTP\/1\.1 413 /)
    expect(sent).toBeLessThan(50 * 1024 * 1024)
  })
})
