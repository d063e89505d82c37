/**
 * DELETE /admin/events?tag=TAG over real HTTP (issue 33: how `l9kit conform` removes the events
 * it ingested): the admin token, one non-empty tag, `{deleted}`, and the lookups (their kept
 * answers included) no longer showing the deleted events.
 */
import { describe, expect, it } from 'vitest'
import { MemoryStore, parseConfig } from '../../src/service/index.js'
import { jsonl, KEYS, makeEvent, request, serveForTest, unlimitedConfig } from './support.js'

const admin = { authorization: `Bearer ${KEYS.admin}` }

describe('DELETE /admin/events?tag=', async () => {
  const service = await serveForTest({ store: new MemoryStore(), config: unlimitedConfig() })
  const del = (query: string, headers: Record<string, string> = admin) => request(service.url, `/admin/events${query}`, { method: 'DELETE', headers })
  const summaries = async (path: string) => {
    const found = (await request(service.url, path)).json as { Services: { summary: string }[] | null }
    return (found.Services ?? []).map((e) => e.summary).sort()
  }

  it('deletes the events carrying the tag, answers how many, and the lookups stop showing them', async () => {
    const run = 'l9kit-conform:c1q2w3'
    const docs = [
      makeEvent({ ip: '192.0.2.50', host: 'a.delete.test', port: '1', tags: [run], summary: 'run 1' }),
      makeEvent({ ip: '192.0.2.50', host: 'b.delete.test', port: '2', tags: ['cdn', run], summary: 'run 2' }),
      makeEvent({ ip: '192.0.2.50', host: 'c.delete.test', port: '3', tags: ['cdn'], summary: 'kept' }),
    ]
    expect((await request(service.url, '/admin/events', { method: 'POST', headers: admin, body: jsonl(docs) })).status).toBe(200)
    // Asked once before, so the service holds finished answers for both lookups.
    expect(await summaries('/host/192.0.2.50')).toEqual(['kept', 'run 1', 'run 2'])
    expect(await summaries('/domain/delete.test')).toEqual(['kept', 'run 1', 'run 2'])
    const answer = await del(`?tag=${encodeURIComponent(run)}`)
    expect(answer.status, answer.text).toBe(200)
    expect(answer.headers['content-type']).toBe('application/json')
    expect(answer.json).toEqual({ deleted: 2 })
    expect(await summaries('/host/192.0.2.50')).toEqual(['kept'])
    expect(await summaries('/domain/delete.test')).toEqual(['kept'])
    expect((await request(service.url, '/api/subdomains/delete.test')).json).toEqual([expect.objectContaining({ subdomain: 'c.delete.test' })])
    expect((await del(`?tag=${encodeURIComponent(run)}`)).json).toEqual({ deleted: 0 })
  })

  it('needs the admin token and exactly one non-empty tag', async () => {
    expect((await del('?tag=x', {})).status).toBe(401)
    expect((await del('?tag=x', { authorization: 'Bearer wrong-token' })).status).toBe(401)
    for (const query of ['', '?tag=', '?tag=a&tag=b', '?label=x']) {
      const answer = await del(query)
      expect(answer.status, query).toBe(400)
      expect((answer.json as { description: string }).description).toMatch(/needs one non-empty tag parameter/)
    }
  })

  it('is refused (403) when the configuration has no admin token', async () => {
    const closed = await serveForTest({ config: parseConfig(JSON.stringify({ keys: [] }), 'none.json') })
    const answer = await request(closed.url, '/admin/events?tag=x', { method: 'DELETE', headers: admin })
    expect(answer.status).toBe(403)
    expect((answer.json as { description: string }).description).toBe('Deleting events is disabled: the service configuration has no admin_token.')
  })
})
