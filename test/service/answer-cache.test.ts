/** Kept /host and /domain answers (src/service/http/answer-cache.ts): bounded, and never stale after an ingest. */
import { describe, expect, it } from 'vitest'
import { AnswerCache } from '../../src/service/http/answer-cache.js'
import { createContext } from '../../src/service/http/context.js'
import { MemoryStore } from '../../src/service/index.js'
import { makeEvent, request, serveForTest, unlimitedConfig } from './support.js'

const bytes = (text: string) => Buffer.from(text)

describe('AnswerCache', () => {
  it('keeps a copy of an answer until the version changes', () => {
    const cache = new AnswerCache()
    expect(cache.get('1.2.3.4', 7)).toBeUndefined()
    const body = bytes('{"Services":null,"Leaks":null}')
    cache.set('1.2.3.4', 7, body)
    body[0] = 0x20 // the caller's buffer may be reused: the kept copy must not change
    const kept = cache.get('1.2.3.4', 7)
    expect(kept?.body.toString()).toBe('{"Services":null,"Leaks":null}')
    expect(kept?.headers).toEqual(['content-type', 'application/json', 'content-length', '30', 'vary', 'accept'])
    expect(cache.get('1.2.3.4', 8)).toBeUndefined()
    expect(cache.size).toBe(0)
  })

  it('gives an answer only at the version it was built at, unless told it is still right there', () => {
    const cache = new AnswerCache()
    cache.set('a', 1, bytes('old'), '192.0.2.1')
    expect(cache.get('a', 2)).toBeUndefined() // no way to tell: dropped
    const changed = new Map<string, number>([['192.0.2.1', 0]])
    const told = new AnswerCache(undefined, (scope, builtAt) => (changed.get(scope) ?? 0) <= builtAt)
    told.set('a', 1, bytes('kept'), '192.0.2.1')
    told.set('b', 1, bytes('no scope'))
    expect(told.get('a', 5)?.body.toString()).toBe('kept') // other things changed since version 1
    expect(told.get('b', 5)).toBeUndefined()
    changed.set('192.0.2.1', 6)
    expect(told.get('a', 6)).toBeUndefined()
    expect(told.size).toBe(0)
  })

  it('drops the oldest answers beyond its entry and byte bounds, and never keeps a large one', () => {
    const cache = new AnswerCache({ entries: 3, bytes: 10, answerBytes: 6 })
    cache.get('', 1)
    for (const key of ['a', 'b', 'c', 'd']) cache.set(key, 1, bytes(key))
    expect(cache.size).toBe(3)
    expect(cache.get('a', 1)).toBeUndefined()
    expect(cache.get('d', 1)?.body.toString()).toBe('d')
    cache.set('e', 1, bytes('eeeeeee')) // over answerBytes
    expect(cache.get('e', 1)).toBeUndefined()
    cache.set('f', 1, bytes('ffff'))
    cache.set('g', 1, bytes('gggggg')) // b and c go for the entry bound, then d for the byte bound (1 + 4 + 6 > 10)
    expect(['b', 'c', 'd', 'f', 'g'].map((k) => cache.get(k, 1)?.body.toString())).toEqual([undefined, undefined, undefined, 'ffff', 'gggggg'])
  })
})

describe('kept /host answers and the memory store', () => {
  it('outlive ingests of other addresses and go with one of their own, duplicates included', async () => {
    const store = new MemoryStore()
    const { answers } = createContext(store, unlimitedConfig())
    const fingerprint = 'cd'.repeat(32)
    await store.ingest([makeEvent({ ip: '192.0.2.30', port: '80', summary: 'a', time: '2024-01-01T00:00:00Z', event_fingerprint: fingerprint })])
    answers.host.set('192.0.2.30', store.version!, bytes('answer'), '192.0.2.30')
    await store.ingest([makeEvent({ ip: '192.0.2.31', port: '80' }), makeEvent({ ip: '2001:db8::30', port: '80' })])
    expect(answers.host.get('192.0.2.30', store.version!)?.body.toString()).toBe('answer')
    // The same event seen again, earlier: nothing in the answer changes, but it is dropped all the same.
    await store.ingest([makeEvent({ ip: '192.0.2.30', port: '80', summary: 'a', time: '2023-01-01T00:00:00Z', event_fingerprint: fingerprint })])
    expect(answers.host.get('192.0.2.30', store.version!)).toBeUndefined()
    answers.host.set('192.0.2.30', store.version!, bytes('answer'), '192.0.2.30')
    await store.ingest([makeEvent({ ip: '192.0.2.30', port: '443' })])
    expect(answers.host.get('192.0.2.30', store.version!)).toBeUndefined()
  })
})

describe('kept answers over HTTP', async () => {
  const store = new MemoryStore()
  const service = await serveForTest({ store, config: unlimitedConfig() })
  const get = (path: string) => request(service.url, path)
  const summaries = async (path: string) => {
    const answer = await get(path)
    expect(answer.status, answer.text).toBe(200)
    const body = answer.json as { Services: { summary: string }[] | null }
    return (body.Services ?? []).map((e) => e.summary).sort()
  }

  it('answers a repeated lookup with the same bytes and headers', async () => {
    await store.ingest([makeEvent({ ip: '192.0.2.10', host: 'a.kept.test', port: '80', summary: 'first' })])
    const first = await get('/host/192.0.2.10')
    const again = await get('/host/192.0.2.10')
    expect(again.text).toBe(first.text)
    for (const name of ['content-type', 'content-length', 'vary']) expect(again.headers[name]).toBe(first.headers[name])
    expect(again.headers.vary).toBe('accept')
  })

  it('shows events ingested after an answer was kept, new ones and replaced ones, for hosts and domains', async () => {
    const fingerprint = 'ab'.repeat(32)
    await store.ingest([makeEvent({ ip: '192.0.2.20', host: 'b.kept.test', port: '80', summary: 'one', time: '2024-01-01T00:00:00Z', event_fingerprint: fingerprint })])
    expect(await summaries('/host/192.0.2.20')).toEqual(['one'])
    expect(await summaries('/domain/b.kept.test')).toEqual(['one'])
    await store.ingest([makeEvent({ ip: '192.0.2.20', host: 'b.kept.test', port: '443', summary: 'two' })])
    expect(await summaries('/host/192.0.2.20')).toEqual(['one', 'two'])
    expect(await summaries('/domain/b.kept.test')).toEqual(['one', 'two'])
    // The same event seen later: a duplicate whose newer bytes replace the kept ones.
    await store.ingest([makeEvent({ ip: '192.0.2.20', host: 'b.kept.test', port: '80', summary: 'one, later', time: '2024-06-01T00:00:00Z', event_fingerprint: fingerprint })])
    expect(await summaries('/host/192.0.2.20')).toEqual(['one, later', 'two'])
    expect(await summaries('/domain/b.kept.test')).toEqual(['one, later', 'two'])
  })

  it('answers every spelling of an address alike, and malformed ones 400 each time', async () => {
    await store.ingest([makeEvent({ ip: '2001:db8::5', port: '22', summary: 'v6' })])
    for (const path of ['/host/2001:db8::5', '/host/2001:DB8:0::5', '/host/2001%3Adb8%3A%3A5', '/host/2001:db8::5']) {
      expect(await summaries(path)).toEqual(['v6'])
    }
    for (let i = 0; i < 2; i++) expect((await get('/host/2001:db8::5::1')).status).toBe(400)
  })
})
