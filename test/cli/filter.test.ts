/** `l9kit filter QUERY [FILE…]`: matching documents as given, grep's exit codes, query errors with a caret, --jobs. */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { emptyEvent, type Event } from '../../src/schema/index.js'
import { runBuilt } from '../support/built-cli.js'
import { runCli } from '../support/streams.js'
import { fileTempDir } from '../support/temp.js'

const dir = fileTempDir('l9kit-filter-')

function event(change: Partial<Event> & Record<string, unknown>): Event {
  return { ...emptyEvent(), event_type: 'service', event_source: 'Test', time: '2026-11-24T10:00:00Z', ...change } as Event
}

const critical = { ...emptyEvent().leak, severity: 'critical' }
const lines = [
  JSON.stringify(event({ ip: '192.0.2.1', port: '443', summary: 'nginx here', geoip: { ...emptyEvent().geoip, country_iso_code: 'FR' } })),
  // Lenient, spaced, members out of order: judged normalised, printed as given.
  '{ "summary": "Apache",  "port": 443, "ip": "192.0.2.2", "event_type": "leak", "leak": {"severity": "critical"}, "time": "2026-11-24T12:00:00+02:00" }',
  JSON.stringify(event({ event_type: 'leak', ip: '198.51.100.3', port: '80', leak: critical, geoip: { ...emptyEvent().geoip, country_name: 'Germany' } })),
  'not json',
  JSON.stringify(event({ ip: '192.0.2.4', port: '22', summary: 'ssh only', time: 'yesterday' })),
]
const input = lines.join('\n') + '\n'

describe('l9kit filter', () => {
  it('prints the matching documents exactly as given, in input order, and exits 0', async () => {
    const r = await runCli(['filter', '+port:443'], input)
    expect(r.code).toBe(0)
    expect(r.stdout).toBe(`${lines[0]}\n${lines[1]}\n`)
    expect(r.stderr.split('\n')).toEqual([
      expect.stringMatching(/^<stdin>:4: \(document\): not valid JSON/),
      expect.stringMatching(/^<stdin>:5: \/time: /),
      'filter: 2 records could not be read or normalised (above); 2 matched',
      '',
    ])
    expect((await runCli(['filter', 'ip:192.0.2.0/24 -nginx'], input)).stdout).toBe(`${lines[1]}\n`)
    expect((await runCli(['filter', 'country:Germany'], input)).stdout).toBe(`${lines[2]}\n`)
    expect((await runCli(['filter', '+severity:critical -country:FR'], input)).stdout).toBe(`${lines[1]}\n${lines[2]}\n`)
    expect((await runCli(['filter', '+time:>"2026-11-24"'], input)).stdout).toBe(`${lines[0]}\n${lines[1]}\n${lines[2]}\n`)
    expect((await runCli(['filter', '*'], input)).code).toBe(0)
  })

  it('exits 1 when nothing matched, as grep does', async () => {
    const r = await runCli(['filter', 'port:8080'], input)
    expect([r.code, r.stdout]).toEqual([1, ''])
  })

  it('keeps to --scope: service or leak events only; leak-only fields refused with service', async () => {
    expect((await runCli(['filter', '--scope', 'leak', '*'], input)).stdout).toBe(`${lines[1]}\n${lines[2]}\n`)
    expect((await runCli(['filter', '--scope', 'service', 'port:443'], input)).stdout).toBe(`${lines[0]}\n`)
    const refused = await runCli(['filter', '--scope', 'service', 'severity:critical'], input)
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/`leak\.severity` is a field of leaks/)
  })

  it('exits 2 on a bad query, naming the position and term with a caret, and prints nothing', async () => {
    const r = await runCli(['filter', '+port:443 -countri:FR'], input)
    expect(r).toMatchObject({ code: 2, stdout: '' })
    expect(r.stderr).toBe(
      'l9kit filter: bad query at position 12 (`countri`): there is no field `countri`; did you mean `country`?\n' + '+port:443 -countri:FR\n' + '           ^^^^^^^\n',
    )
    expect((await runCli(['filter'], input)).code).toBe(2)
    expect((await runCli(['filter', 'ip:1.2.3'], input)).stderr).toMatch(/position 4 \(`1\.2\.3`\): `1\.2\.3` is not an IP address/)
  })

  it('reads gzip files, several files, one document or an array spread over lines', async () => {
    const gz = join(dir, 'events.jsonl.gz')
    writeFileSync(gz, gzipSync(input))
    const pretty = join(dir, 'pretty.json')
    writeFileSync(pretty, JSON.stringify([JSON.parse(lines[0]!), JSON.parse(lines[2]!)], null, 2))
    const r = await runCli(['filter', 'port:443 port:80', gz, pretty])
    expect(r.code).toBe(0)
    expect(r.stdout).toBe(`${lines[0]}\n${lines[1]}\n${lines[2]}\n${lines[0]}\n${lines[2]}\n`)
  })

  it('reads a line holding a JSON array element by element, as the service stores it: matching elements as compact JSON', async () => {
    const a = JSON.parse(lines[0]!) as Event
    const b = JSON.parse(lines[2]!) as Event
    const arrayLine = JSON.stringify([a, { ...b, time: 'yesterday' }, b])
    const r = await runCli(['filter', 'port:443 port:80'], `${arrayLine}\n${lines[1]}\n`)
    expect(r.code).toBe(0)
    expect(r.stdout).toBe(`${JSON.stringify(a)}\n${JSON.stringify(b)}\n${lines[1]}\n`)
    // The element that cannot be normalised is named by its line (the JSON reader gives the elements of a one-line array as records of that line).
    expect(r.stderr).toMatch(/^<stdin>:1: \/time: /)
    expect(r.stderr).toContain('filter: 1 record could not be read or normalised (above); 3 matched')
  })

  it('takes --max-errors as the other commands that list problems do', async () => {
    const bad = Array.from({ length: 5 }, () => 'not json').join('\n')
    const r = await runCli(['filter', '--max-errors', '2', '*'], `${bad}\n${lines[0]}\n`)
    expect(r.code).toBe(0)
    expect(r.stdout).toBe(`${lines[0]}\n`)
    expect(r.stderr.split('\n')).toEqual([
      expect.stringMatching(/^<stdin>:1: \(document\): not valid JSON/),
      expect.stringMatching(/^<stdin>:2: \(document\): not valid JSON/),
      '… 3 more problem lines not shown (--max-errors 2)',
      'filter: 5 records could not be read or normalised (above); 1 matched',
      '',
    ])
  })

  it('--jobs 2 writes what --jobs 1 writes (built CLI, a 6 MB input)', async () => {
    const big: string[] = []
    for (let i = 0; big.length < 12_000; i++) {
      const e = event({ ip: `192.0.${i % 4}.${i % 250}`, port: String(i % 7), summary: `row ${i} ${'z'.repeat(400)}`, event_type: i % 3 === 0 ? 'leak' : 'service' })
      const text = JSON.stringify(e).replace('"Test"', i % 2 ? '"Test"' : '"T\\u00e9st"')
      big.push(i % 997 === 0 ? '{oops' : i % 1009 === 0 ? `${JSON.stringify(e)}\r` : i % 1013 === 0 ? `[${text},${text.replace('"Test"', '"Other"')}]` : text)
    }
    const path = join(dir, 'big.jsonl')
    writeFileSync(path, big.join('\n'))
    const args = ['filter', '+ip:192.0.1.0/24 -port:3']
    const one = await runBuilt([...args, '--jobs', '1', path])
    expect(one.code).toBe(0)
    expect(one.stdout.split('\n').length).toBeGreaterThan(2000)
    expect(one.stderr).toMatch(/big\.jsonl:998: /)
    expect(await runBuilt([...args, '--jobs', '2', path])).toEqual(one)
    expect(await runBuilt([...args, '--jobs', '2'], path)).toEqual(await runBuilt([...args, '--jobs', '1'], path))
  }, 360_000)
})
