/**
 * A failing store (issue 40): its own text (a database's message naming its tables) never
 * reaches an answer; the server's log has it. Every route that reaches the store answers 500
 * with a description saying where the reason is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setFailureLog } from '../../src/service/http/reply.js'
import type { Query } from '../../src/query/index.js'
import { MemoryStore } from '../../src/service/index.js'
import { KEYS, request, serveForTest, unlimitedConfig } from './support.js'

const SECRET_TEXT = 'relation "l9kit_private.events" does not exist'

/** A store every read of which fails with a database's words. */
class FailingStore extends MemoryStore {
  override host(): never {
    throw new Error(SECRET_TEXT)
  }
  override domain(): never {
    throw new Error(SECRET_TEXT)
  }
  override search(_query: Query): never {
    throw new Error(SECRET_TEXT)
  }
  override plugins(): never {
    throw new Error(SECRET_TEXT)
  }
  override deleteTagged(): never {
    throw new Error(SECRET_TEXT)
  }
  override searchAll(): AsyncIterable<Buffer> {
    return (async function* () {
      throw new Error(SECRET_TEXT)
    })()
  }
}

describe('a failing store', async () => {
  const logged: string[] = []
  let previous: (line: string) => void
  beforeAll(() => {
    previous = setFailureLog((line) => logged.push(line))
  })
  afterAll(() => void setFailureLog(previous))
  const service = await serveForTest({ store: new FailingStore(), config: unlimitedConfig() })

  it.each([
    ['GET', '/host/192.0.2.1', {}],
    ['GET', '/domain/example.com', {}],
    ['GET', '/search?scope=service&q=port:22', {}],
    ['GET', '/api/plugins', {}],
    ['GET', '/bulk/service?q=*', { 'api-key': KEYS.pro }],
    ['DELETE', '/admin/events?tag=x', { authorization: `Bearer ${KEYS.admin}` }],
  ] as const)('%s %s: 500 without the store’s text, which is logged', async (method, path, headers) => {
    const before = logged.length
    const answer = await request(service.url, path, { method, headers })
    expect(answer.status).toBe(500)
    expect(answer.text).not.toContain('l9kit_private')
    expect((answer.json as { description: string }).description).toMatch(/; the reason is in the server's log\.$/)
    expect(logged.slice(before).join('\n')).toContain(SECRET_TEXT)
  })
})
