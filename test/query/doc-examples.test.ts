/** The example queries of docs/search.md parse (in the scope their note names, else any). */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { matches, parseQuery } from '../../src/query/index.js'
import { emptyEvent } from '../../src/schema/index.js'

it('parses every example query of docs/search.md', () => {
  const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'search.md'), 'utf8')
  const block = /## The language[\s\S]*?Examples:\n\n<!--[^\n]*-->\n```\n([\s\S]*?)```/.exec(doc)![1]!
  const lines = block.split('\n').filter((l) => l.trim() !== '' && !l.includes('…'))
  expect(lines.length).toBeGreaterThan(5)
  for (const line of lines) {
    const scoped = /\s+\(scope (leak|service)\)$/.exec(line)
    const text = scoped ? line.slice(0, scoped.index) : line
    expect(() => parseQuery(text, { scope: (scoped?.[1] as 'leak' | undefined) ?? 'any' }), text).not.toThrow()
  }
  // The regular expression example finds what its note says, written as it is (patterns are anchored).
  const regex = lines.find((l) => l.startsWith('summary:~'))!
  const event = (summary: string) => ({ ...emptyEvent(), summary })
  expect(matches(parseQuery(regex), event('HTTP/1.1 200 OK\r\nServer: nginx/1.24.0\r\nContent-Type: text/html'))).toBe(true)
  expect(matches(parseQuery(regex), event('HTTP/1.1 200 OK\r\nServer: nginx/1.25.3\r\n'))).toBe(false)
})
