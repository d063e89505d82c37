import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { PassThrough, Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { main } from '../../src/cli/program.js'
import { CONVERTERS } from '../../src/convert/index.js'
import { isStrictValid } from '../../src/validate/index.js'
import { TOOLS_CORPUS } from '../support/golden.js'
import { Capture, runCli } from '../support/streams.js'
import { testTempDir } from '../support/temp.js'

const corpus = (path: string) => join(TOOLS_CORPUS, path)
const RUN_START = ['--run-start', '2024-01-02T03:04:05Z']
const lines = (text: string) => text.split('\n').filter((l) => l !== '')

describe('l9kit convert', () => {
  it('converts a file to event documents; problems as file:line: reason; summary; exit 1 when any skipped', async () => {
    const file = corpus('httpx/damaged.jsonl')
    const r = await runCli(['convert', '--from', 'httpx', ...RUN_START, file])
    expect(r.code).toBe(1)
    const events = lines(r.stdout).map((l) => JSON.parse(l))
    expect(events).toHaveLength(2)
    for (const e of events) expect(isStrictValid(e)).toBe(true)
    expect(events[0]).toMatchObject({ event_source: 'httpx', event_pipeline: ['httpx', 'l9kit'] })
    const err = lines(r.stderr)
    expect(err).toContain(`${file}:3: bad timestamp: day 30 does not exist: February 2024 has 29 days`)
    expect(err.some((l) => l.startsWith(`${file}:7: truncated final record`))).toBe(true)
    expect(err.at(-1)).toBe('2 converted, 7 skipped') // line 5, an array of three strings: three records that are not objects
  })

  it('writes header names in byte order; --header-order input and --escape go as normalize has them; l9 output only', async () => {
    const httpx = '{"timestamp":"2024-01-02T03:04:05Z","url":"http://192.0.2.1","host":"192.0.2.1","port":"80","status_code":200,"title":"a & b","header":{"x-b":"1","Date":"2","10":"3","9":"4"}}\n'
    const header = (text: string) => /"header":(\{[^}]*\})/.exec(text)?.[1]
    const sorted = await runCli(['convert', '--from', 'httpx', ...RUN_START], httpx)
    expect(sorted.code, sorted.stderr).toBe(0)
    const go = await runCli(['convert', '--from', 'httpx', ...RUN_START, '--escape', 'go'], httpx)
    const input = await runCli(['convert', '--from', 'httpx', ...RUN_START, '--header-order', 'input'], httpx)
    expect(header(sorted.stdout)).toMatch(/^\{"10":"3","9":"4","date":"2","x-b":"1"/)
    expect(go.stdout).toBe(sorted.stdout.replaceAll('a & b', 'a \\u0026 b'))
    expect(header(input.stdout)).not.toBe(header(sorted.stdout))
    const normalized = await runCli(['normalize'], input.stdout)
    expect(normalized.stdout).toBe(sorted.stdout)
    const csv = await runCli(['convert', '--from', 'httpx', '--to', 'csv', '--escape', 'go'], httpx)
    expect(csv).toMatchObject({ code: 2, stdout: '' })
    expect(csv.stderr).toContain('--header-order and --escape apply to --to l9 only')
  })

  it('names the XML element path of an nmap problem beside its line', async () => {
    const file = corpus('nmap-xml/damaged-truncated.xml')
    const r = await runCli(['convert', '--from', 'nmap-xml', ...RUN_START, file])
    expect(r.code).toBe(1)
    expect(lines(r.stderr)).toContainEqual(expect.stringMatching(new RegExp(`^${file.replace(/[.]/g, '\\.')}:[0-9]+: /nmaprun/host\\[3\\]/ports: input ends inside <ports>`)))
  })

  it('exits 0 when everything converted, reading standard input by default', async () => {
    const r = await runCli(['convert', '--from', 'hostport', ...RUN_START], '192.0.2.1:80\n[2001:db8::1]:443\n')
    expect(r.code).toBe(0)
    expect(lines(r.stdout).map((l) => JSON.parse(l).time)).toEqual(['2024-01-02T03:04:05Z', '2024-01-02T03:04:05Z'])
    expect(r.stderr).toBe('2 converted, 0 skipped\n')
  })

  it('detects the format with --from auto, per file', async () => {
    const r = await runCli(['convert', '--from', 'auto', '--to', 'hostport', corpus('naabu/typical.jsonl'), corpus('url/typical.txt')])
    expect(r.code).toBe(0)
    expect(lines(r.stdout)).toEqual([
      '198.51.100.10:22',
      '198.51.100.10:80',
      '198.51.100.10:443',
      '198.51.100.11:8443',
      'www.example.com:443',
      'www.example.com:8080',
      '198.51.100.5:8443',
      '[2001:db8::7]:80',
    ])
  })

  it('fails clearly (exit 2) when auto recognises nothing', async () => {
    const r = await runCli(['convert', '--from', 'auto'], 'hello there\n')
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/^l9kit convert: <stdin>: cannot tell the input format from its first bytes \("hello there"\); name it with --from \(l9, /)
    expect(r.stderr).not.toContain('    at ')
  })

  it('writes url, human and csv; counts events the output cannot express as skipped', async () => {
    const url = await runCli(['convert', '--from', 'url', '--to', 'url'], 'https://a.example.com:443/x\nhttp://b.example.com:8080/\n')
    expect(lines(url.stdout)).toEqual(['https://a.example.com/x', 'http://b.example.com:8080'])
    const human = await runCli(['convert', '--from', 'nuclei', '--to', 'human', ...RUN_START, corpus('nuclei/typical.jsonl')])
    expect(human.stdout).toContain('leak 93.184.215.14:443 (www.example.com) 2024-09-23T12:05:11.87231Z\n')
    expect(human.stdout.split('\n\n')).toHaveLength(4) // three blocks, each followed by a blank line
    const csv = await runCli(['convert', '--from', 'hostport', '--to', 'csv', '--columns', 'ip,port,transport', ...RUN_START], '192.0.2.1:80\n')
    expect(csv.stdout).toBe('ip,port,transport\r\n192.0.2.1,80,tcp\r\n')
    const noPort = await runCli(['convert', '--from', 'dnsx', '--to', 'hostport'], '{"host":"a.example.com","a":["192.0.2.1"]}\n')
    expect(noPort).toMatchObject({ code: 1, stdout: '' })
    expect(noPort.stderr).toBe('<stdin>: event 1 (192.0.2.1): no port to write\n0 converted, 1 skipped\n')
  })

  it('reads event documents back with --from l9', async () => {
    const converted = await runCli(['convert', '--from', 'naabu', corpus('naabu/typical.jsonl')])
    const back = await runCli(['convert', '--from', 'l9', '--to', 'hostport'], converted.stdout)
    expect(lines(back.stdout)).toEqual(['198.51.100.10:22', '198.51.100.10:80', '198.51.100.10:443', '198.51.100.11:8443'])
  })

  it('computes fingerprint v1 by default and v2 on request', async () => {
    const v1 = await runCli(['convert', '--from', 'zgrab2', corpus('zgrab2/typical.jsonl')])
    const v2 = await runCli(['convert', '--from', 'zgrab2', '--fingerprint', 'v2', corpus('zgrab2/typical.jsonl')])
    const fp = (out: string) => lines(out).map((l) => JSON.parse(l).event_fingerprint as string)
    expect(fp(v1.stdout)).toHaveLength(3)
    for (const f of [...fp(v1.stdout), ...fp(v2.stdout)]) expect(f).toMatch(/^[0-9a-f]{64}$/)
    expect(fp(v1.stdout)).not.toEqual(fp(v2.stdout))
  })

  it('rejects usage mistakes with exit 2 and one line', async () => {
    const cases: [string[], RegExp][] = [
      [['convert'], /--from is required/],
      [['convert', '--from', 'nope'], /--from must be auto or one of l9, /],
      [['convert', '--from', 'httpx', '--to', 'xml'], /--to must be one of l9, hostport, url, human, csv/],
      [['convert', '--from', 'httpx', '--columns', 'ip'], /--columns applies to --to csv only/],
      [['convert', '--from', 'httpx', '--to', 'csv', '--columns', 'ip,nope'], /unknown field 'nope'/],
      [['convert', '--from', 'httpx', '--fingerprint', 'v3'], /--fingerprint must be one of v1, v2/],
      [['convert', '--from', 'httpx', '--run-start', 'yesterday'], /--run-start/],
      [['convert', '--from', 'httpx', '/nonexistent/in.jsonl'], /\/nonexistent\/in\.jsonl: no such file or directory/],
    ]
    for (const [argv, message] of cases) {
      const r = await runCli(argv)
      expect(r.code, argv.join(' ')).toBe(2)
      expect(r.stderr).toMatch(message)
      expect(lines(r.stderr)).toHaveLength(1)
    }
  })

  it('describes every option and lists every format in --help', async () => {
    const r = await runCli(['convert', '--help'])
    expect(r.code).toBe(0)
    for (const option of ['--from', '--to', '--columns', '--fingerprint', '--run-start', '--max-line-bytes']) expect(r.stdout).toContain(option)
    for (const c of CONVERTERS) expect(r.stdout).toContain(`  ${c.name} `)
    for (const o of ['l9', 'hostport', 'url', 'human', 'csv']) expect(r.stdout).toMatch(new RegExp(`^  ${o} `, 'm'))
  })

  it('draws a progress bar on stderr only when stderr is a terminal and the input is a file', async () => {
    const dir = testTempDir('l9kit-convert-')
    const file = join(dir, 'in.txt')
    writeFileSync(file, '192.0.2.1:80\n')
    const run = async (argv: string[], stdin: string) => {
      const stdout = new Capture()
      const stderr = new Capture()
      const code = await main(argv, { stdin: Readable.from([Buffer.from(stdin)]), stdout, stderr, stderrIsTTY: true, env: {} })
      return { code, stderr: stderr.text }
    }
    const withFile = await run(['convert', '--from', 'hostport', file], '')
    expect(withFile.stderr).toContain('[##############################] 100%')
    expect(withFile.stderr.endsWith('\r\x1b[K1 converted, 0 skipped\n')).toBe(true)
    const withStdin = await run(['convert', '--from', 'hostport'], '192.0.2.1:80\n')
    expect(withStdin.stderr).toBe('1 converted, 0 skipped\n')
  })

  it('stops on the stop signal (Ctrl-C), keeping what was converted and printing the summary', async () => {
    const stdin = new PassThrough()
    const stdout = new Capture()
    const stderr = new Capture()
    const controller = new AbortController()
    const running = main(['convert', '--from', 'hostport', '--to', 'hostport'], { stdin, stdout, stderr, stderrIsTTY: false, env: {}, stopSignal: controller.signal })
    stdin.write('192.0.2.1:80\n')
    setImmediate(() => controller.abort()) // the line may or may not have been read by then
    expect(await running).toBe(1)
    expect(['', '192.0.2.1:80\n']).toContain(stdout.text)
    expect(stderr.text).toBe(`${stdout.text === '' ? 0 : 1} converted, 0 skipped (interrupted)\n`)
  })
})
