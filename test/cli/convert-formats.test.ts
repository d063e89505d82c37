import { describe, expect, it } from 'vitest'
import { join } from 'node:path'
import { TOOLS_CORPUS } from '../support/golden.js'
import { runCli } from '../support/streams.js'

const RUN_START = ['--run-start', '2024-01-02T03:04:05Z']
const corpus = (name: string) => join(TOOLS_CORPUS, name)
const lines = (text: string) => text.split('\n').filter((l) => l !== '')

describe('convert: the issue 19 formats from the command line', () => {
  it('recognises every new format with auto and converts it', async () => {
    const r = await runCli(['convert', '--from', 'auto', '--to', 'hostport', ...RUN_START, corpus('rustscan/typical.txt'), corpus('zmap/typical.csv'), corpus('sx/typical-json.jsonl')])
    expect(r.code).toBe(0)
    expect(lines(r.stdout)).toEqual(['192.0.2.1:22', '192.0.2.1:80', '192.0.2.1:443', '192.0.2.2:3306', '198.51.100.7:8080', '198.51.100.7:8443', '192.0.2.1:443', '192.0.2.3:80', '192.0.2.1:22', '192.0.2.1:80', '192.0.2.3:53'])
  })

  it('says what auto took an input for when later records do not fit, and counts them', async () => {
    const r = await runCli(['convert', '--from', 'auto', '--to', 'hostport'], '192.0.2.1,80\n192.0.2.2  22\n192.0.2.3  23\n')
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('192.0.2.1:80\n')
    expect(r.stderr).toBe(
      [
        "<stdin>:2: saddr '192.0.2.2  22' is not an IP address (taken as zmap from line 1; use --from sx to force another)",
        "<stdin>:3: saddr '192.0.2.3  23' is not an IP address (taken as zmap from line 1; use --from sx to force another)",
        '<stdin>: 2 records did not fit zmap (taken as zmap from line 1; use --from sx to force another)',
        '1 converted, 2 skipped',
        '',
      ].join('\n'),
    )
  })

  it('writes the filter tool’s other outputs, and chooses fields for human and csv', async () => {
    const nmap = await runCli(['convert', '--from', 'rustscan', '--to', 'nmap-grep'], '192.0.2.1 -> [22]\n')
    expect(nmap.stdout).toBe('Host: 192.0.2.1 ()\tPorts: 22/open/tcp/////\n')
    const masscan = await runCli(['convert', '--from', 'sx', '--to', 'masscan-console'], '192.0.2.1  22\n')
    expect(masscan.stdout).toBe('Discovered open port 22/tcp on 192.0.2.1\n')
    const human = await runCli(['convert', '--from', 'tlsx', '--to', 'human', '--fields', 'ip,port,ssl.version', ...RUN_START, corpus('tlsx/typical.jsonl')])
    expect(human.stdout).toBe('ip:          93.184.215.14\nport:        443\nssl.version: TLSv1.3\n\nip:          192.0.2.25\nport:        465\nssl.version: TLSv1.2\n\n')
    const csv = await runCli(['convert', '--from', 'katana', '--to', 'csv', '--fields', 'host,port,http.status,http.header.server', ...RUN_START, corpus('katana/typical.jsonl')])
    expect(csv.stdout).toBe('host,port,http.status,http.header.server\r\nwww.example.com,443,200,ECS (nyd/D184)\r\nwww.example.com,443,404,nginx\r\nwww.example.com,8080,302,\r\n')
  })

  it('refuses --fields where it does not apply, and unknown paths, with exit 2', async () => {
    const cases: [string[], RegExp][] = [
      [['convert', '--from', 'sx', '--to', 'hostport', '--fields', 'ip'], /--fields applies to --to csv and human only/],
      [['convert', '--from', 'sx', '--to', 'human', '--fields', 'ip,nope'], /--fields: unknown field 'nope' \(fields: event_type, /],
      [['convert', '--from', 'sx', '--to', 'csv', '--fields', 'ip', '--columns', 'ip'], /give --fields or --columns, not both/],
    ]
    for (const [argv, message] of cases) {
      const r = await runCli(argv, '')
      expect(r.code).toBe(2)
      expect(r.stderr).toMatch(message)
    }
  })
})
