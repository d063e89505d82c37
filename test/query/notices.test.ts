/**
 * Queries that parse but read differently from Shodan's or Lucene's language: LeakIX's meaning is
 * kept, and said (src/query/notices.ts), by `l9kit filter`, the search route and the web view.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { matches, parseQuery, readingLine, readingOf } from '../../src/query/index.js'
import { MemoryStore } from '../../src/service/index.js'
import { jsonl, makeEvent, request, serveForTest, unlimitedConfig } from '../service/support.js'
import { runBuilt } from '../support/built-cli.js'
import { testTempDir } from '../support/temp.js'

const notes = (q: string) => readingOf(parseQuery(q)).notes.map((n) => [n.term, n.offset])

describe('notes on operator-looking words', () => {
  it.each([
    ['NOT port:443', [['NOT', 0]]],
    ['port:443 AND country:FR', [['AND', 9]]],
    ['a OR b', [['OR', 2]]],
    ['!port:443', [['!port:443', 0]]],
    ['port=443', [['port=443', 0]]],
    ['+(port:443,80)', [['port:443,80', 2]]],
    ['http.title:', [['http.title:', 0]]],
    ['port:[1000 TO 2000]', [['port:[1000', 0], ['TO', 11]]],
  ])('%s', (q, expected) => expect(notes(q)).toEqual(expected))

  it('says nothing of ordinary queries, quoted words, lower-case words or text values with commas', () => {
    for (const q of ['+port:443 -country:FR', '"NOT"', 'not and or', 'summary:"a,b"', 'http.title:a,b', 'x=1', 'summary:~"a,b"', '*', '']) expect(notes(q), q).toEqual([])
  })

  it('keeps LeakIX\'s meaning: NOT is an optional word beside an optional port:443', () => {
    const q = parseQuery('NOT port:443')
    expect(matches(q, makeEvent({ port: '443' }))).toBe(true)
    expect(matches(q, makeEvent({ port: '22' }))).toBe(false)
    expect(readingLine(readingOf(q))).toBe(
      'the query was read as at least one of `NOT`, `port:443`: `NOT` is searched as a word: LeakIX\'s language has no AND, OR, NOT or TO; write `+term` to require a term, `-term` to exclude one, and no sign for "any of" (position 1)',
    )
    expect(readingOf(parseQuery('+a NOT -b')).readAs).toBe('required `a`; excluded `b`; optional `NOT` (they do not narrow the results)')
  })
})

describe('where the notes are shown', () => {
  it('`l9kit filter` prints one warning line on standard error, and filters as before', async () => {
    const dir = testTempDir('l9kit-notices-')
    const file = join(dir, 'events.jsonl')
    writeFileSync(file, jsonl([makeEvent({ ip: '192.0.2.1', port: '443' }), makeEvent({ ip: '192.0.2.2', port: '22' })]))
    const run = await runBuilt(['filter', 'NOT port:443', file])
    expect(run.code).toBe(0)
    expect(run.stdout.trimEnd().split('\n').map((l) => JSON.parse(l).ip)).toEqual(['192.0.2.1'])
    expect(run.stderr).toMatch(/^l9kit filter: warning: the query was read as at least one of `NOT`, `port:443`: `NOT` is searched as a word: .* \(position 1\)\n$/)
    expect((await runBuilt(['filter', '+port:22 -port:443', file])).stderr).toBe('')
  })

  it('GET /search: an x-query-notice header per note; the web view: a note above the results', async () => {
    const store = new MemoryStore()
    store.ingest([makeEvent({ ip: '192.0.2.1', port: '443' }), makeEvent({ ip: '192.0.2.9', port: '22', network: { organization_name: '', asn: 64500, network: '' } })])
    const running = await serveForTest({ store, config: unlimitedConfig() })
    const json = await request(running.url, `/search?scope=service&q=${encodeURIComponent('port:443 AND ü')}`, { headers: { accept: 'application/json' } })
    expect(json.status).toBe(200)
    expect(json.headers['x-query-notice']).toMatch(/^position 10: `AND` is searched as a word/)
    const plain = await request(running.url, `/search?scope=service&q=${encodeURIComponent('+port:443')}`, { headers: { accept: 'application/json' } })
    expect(plain.headers['x-query-notice']).toBeUndefined()
    const page = await request(running.url, `/search?scope=service&q=${encodeURIComponent('NOT port:443')}`, { headers: { accept: 'text/html' } })
    expect(page.text).toMatch(/id="query-notes">\s*<p>Position 1: `NOT` is searched as a word/)
    const as = await request(running.url, '/search?scope=service&q=AS64500', { headers: { accept: 'text/html' } })
    expect(as.text).toContain('`AS64500` was searched as `asn:64500`.')
    expect(as.text).toContain('192.0.2.9')
    const cidr = await request(running.url, `/search?scope=service&q=${encodeURIComponent('192.0.2.0/24')}`, { headers: { accept: 'text/html' } })
    expect(cidr.text).toContain('`192.0.2.0/24` was searched as `ip:192.0.2.0/24`.')
    expect(cidr.text).not.toContain('Nothing stored matches')
  })
})
