/**
 * `l9kit filter` with its short way for canonical lines taken (a file over 1 MiB on the
 * command's own loop with `--jobs 1`, over 4 MiB with workers): the lines written and the counts
 * are those the long way gives line by line (parse, normalise, evaluate: filter-record.ts), on
 * canonical lines mixed with lenient, escaped, broken ones, ones with an empty fingerprint and
 * lines holding two values (each a record, as with `--jobs 1`: the workers had called the line
 * not JSON).
 * Runs the built CLI (the workers' entry point exists only there).
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { filterDocuments } from '../../src/cli/commands/filter-record.js'
import { recordsOf } from '../../src/jsonl/index.js'
import { parseQuery } from '../../src/query/index.js'
import { emptyEvent, type Event } from '../../src/schema/index.js'
import { runBuilt } from '../support/built-cli.js'
import { fileTempDir } from '../support/temp.js'

const dir = fileTempDir('l9kit-filter-short-')

function line(i: number): string {
  const e: Event = { ...emptyEvent(), event_type: i % 4 === 0 ? 'leak' : 'service', event_source: 'ShortWay', time: '2026-11-24T10:00:00Z' }
  e.event_fingerprint = i % 13 === 0 ? '' : (i * 2654435761).toString(16).padStart(64, '0').slice(-64)
  e.ip = i % 11 === 0 ? '' : `192.0.${i % 3}.${i % 250}`
  e.host = i % 11 === 0 ? `192.0.2.${i % 7}` : `www${i % 5}.example.com`
  e.port = String([443, 80, 22][i % 3])
  e.summary = `row ${i} ${i % 6 === 0 ? 'nginx' : 'apache'} ${'z'.repeat(300)}`
  e.geoip = { ...e.geoip, country_iso_code: i % 5 === 0 ? 'FR' : 'DE' }
  if (i % 4 === 0) e.leak = { ...e.leak, severity: ['critical', 'low'][i % 2 === 0 ? 0 : 1]! }
  const text = JSON.stringify(e)
  switch (i % 17) {
    case 1:
      return text.replace('"port":"', '"p\\u006frt":"') // the same member, escaped: not canonical
    case 2:
      return text.replace(/"port":"(\d+)"/, '"port":$1') // lenient
    case 3:
      return text.replace('ShortWay', 'Short\\/Way')
    case 4:
      return i % 3 === 0 ? '{not json' : text.replace('"time":"', '"time":"x') // not normalised
    case 5:
      return `{"port":"8443",${text.slice(1)}` // a member twice: JSON.parse keeps the last
    case 6:
      return `${text} ${text.replace('"port":"', '"port":"9')}` // two values on one line, read as jq reads them
    default:
      return text
  }
}

describe('l9kit filter, the short way taken', () => {
  const lines: string[] = []
  for (let i = 0, bytes = 0; bytes < 5 * 1024 * 1024; i++) {
    lines.push(line(i))
    bytes += lines.at(-1)!.length + 1
  }
  const path = join(dir, 'mixed.jsonl')
  writeFileSync(path, `${lines.join('\n')}\n`)

  for (const text of ['+port:443 -country:FR', 'ip:192.0.2.0/24 OR summary:nginx', 'l9fp:* severity:critical']) {
    it(`'${text}': --jobs 1 and --jobs 2 print what the long way matches, line by line`, async () => {
      const query = parseQuery(text)
      let invalid = 0
      const matched: string[] = []
      lines.forEach((t, i) => {
        for (const record of recordsOf({ line: i + 1, offset: 0, text: t })) {
          const [judged] = filterDocuments(record, query)
          if (judged!.verdict === true) matched.push(record.text)
          else if (judged!.verdict !== false) invalid++
        }
      })
      expect(matched.length).toBeGreaterThan(100)
      expect(invalid).toBeGreaterThan(100)
      const one = await runBuilt(['filter', text, '--jobs', '1', path])
      expect(one.stdout).toBe(matched.map((t) => `${t}\n`).join(''))
      expect(one.stderr.trim().split('\n').at(-1)).toBe(`filter: ${invalid} records could not be read or normalised (above); ${matched.length} matched`)
      expect(await runBuilt(['filter', text, '--jobs', '2', path])).toEqual(one)
    }, 300_000)
  }
})
