/**
 * Issue 33, detection that cannot be silently wrong: `--from auto` on two tools' JSON Lines
 * concatenated converts each record as its own tool's (never the first tool's), reports a
 * record no format recognises, and an explicit `--from` reports a record of another format
 * instead of converting it with the wrong rules. The records are lines of the golden corpus.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Event } from '../../src/schema/index.js'
import { TOOLS_CORPUS } from '../support/golden.js'
import { runCli } from '../support/streams.js'

/** The JSON lines of a corpus file (no log lines). */
const records = (file: string) =>
  readFileSync(join(TOOLS_CORPUS, file), 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('{'))

const events = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Event)

const convert = (from: string, input: string[]) => runCli(['convert', '--from', from, '--run-start', '2024-01-02T03:04:05Z'], `${input.join('\n')}\n`)

describe('convert --from auto on mixed JSON Lines', () => {
  it('naabu then httpx: the httpx records are httpx events, with their address and HTTP fields', async () => {
    const naabu = records('naabu/typical.jsonl')
    const httpx = records('httpx/typical.jsonl')
    const r = await convert('auto', [...naabu, ...httpx])
    expect(r.code).toBe(0)
    const got = events(r.stdout)
    expect(got.map((e) => e.event_source)).toEqual([...naabu.map(() => 'naabu'), ...httpx.map(() => 'httpx')])
    const alone = events((await convert('httpx', httpx)).stdout)
    expect(got.slice(naabu.length)).toEqual(alone)
    expect(alone.every((e) => e.ip !== '' && e.http.status !== 0)).toBe(true)
  })

  it('tlsx then httpx: a plain-HTTP httpx record gets no TLS', async () => {
    const http = records('httpx/typical.jsonl').find((l) => (JSON.parse(l) as { scheme?: string }).scheme === 'http')!
    const r = await convert('auto', [...records('tlsx/typical.jsonl'), http])
    expect(r.code).toBe(0)
    const last = events(r.stdout).at(-1)!
    expect(last).toMatchObject({ event_source: 'httpx', transport: ['tcp', 'http'], ssl: { enabled: false, detected: false } })
  })

  it('censys then naabu then tlsx: every record converted, none missing', async () => {
    const censys = records('censys/edge.jsonl')
    const naabu = records('naabu/typical.jsonl')
    const tlsx = records('tlsx/typical.jsonl')
    const one = async (from: string, lines: string[]) => events((await convert(from, lines)).stdout)
    const expected = [...(await one('censys', censys)), ...(await one('naabu', naabu)), ...(await one('tlsx', tlsx))]
    const r = await convert('auto', [...censys, ...naabu, ...tlsx])
    expect(events(r.stdout)).toEqual(expected)
    expect(r.stderr).toMatch(new RegExp(`^${expected.length} converted, \\d+ skipped\\n$`, 'm'))
  })

  it('sx JSON then sx plain lines (as --from sx reads them), then naabu: each its own tool\'s', async () => {
    const r = await convert('auto', [...records('sx/typical-json.jsonl'), '192.0.2.9            443   ', ...records('naabu/typical.jsonl')])
    expect(r.code).toBe(0)
    expect(events(r.stdout).map((e) => `${e.event_source} ${e.ip}:${e.port}`)).toEqual([
      'sx 192.0.2.1:22',
      'sx 192.0.2.1:80',
      'sx 192.0.2.3:53',
      'sx 192.0.2.9:443',
      ...records('naabu/typical.jsonl').map((l) => `naabu ${(JSON.parse(l) as { ip: string; port: number }).ip}:${(JSON.parse(l) as { port: number }).port}`),
    ])
  })

  it('reports and counts a record no format recognises (exit 1)', async () => {
    const r = await convert('auto', [...records('naabu/typical.jsonl'), '{"foo":1}', ...records('subfinder/typical.jsonl')])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('<stdin>:5: no format recognises this record (members foo); name its format with --from\n')
    expect(r.stderr).toMatch(/^7 converted, 1 skipped$/m)
  })

  it('a first record no format recognises is reported and counted too; the records after it are converted (was: the whole input refused, exit 2)', async () => {
    const r = await convert('auto', ['{"foo":1}', ...records('naabu/typical.jsonl')])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('<stdin>:1: no format recognises this record (members foo); name its format with --from\n')
    expect(events(r.stdout).map((e) => e.event_source)).toEqual(records('naabu/typical.jsonl').map(() => 'naabu'))
    // Nothing any format claims at all: still the usage error naming the formats.
    const none = await convert('auto', ['{"foo":1}', '{"bar":2}'])
    expect([none.code, none.stdout]).toEqual([2, ''])
    expect(none.stderr).toMatch(/cannot tell the input format from its first bytes/)
  })
})

describe('convert --from NAME on another format\'s records', () => {
  it('--from tlsx on an httpx record reports it (exit 1), with no TLS event', async () => {
    const httpx = records('httpx/typical.jsonl')
    const r = await convert('tlsx', httpx)
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain('<stdin>:1: not a tlsx record: it is a httpx record (')
    expect(r.stderr).toContain('use --from httpx, or --from auto for mixed input')
  })

  it('--from naabu on httpx, tlsx and sx records reports each', async () => {
    const others = [records('httpx/typical.jsonl')[0]!, records('tlsx/typical.jsonl')[0]!, records('sx/typical-json.jsonl')[0]!]
    const r = await convert('naabu', others)
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr.match(/not a naabu record: it is a (\w+) record/g)).toEqual(['not a naabu record: it is a httpx record', 'not a naabu record: it is a tlsx record', 'not a naabu record: it is a sx record'])
  })

  it('--from sx on a naabu record reports it: sx names its scan, naabu does not', async () => {
    const r = await convert('sx', records('naabu/typical.jsonl').slice(0, 1))
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain('not an sx record: no scan')
  })
})
