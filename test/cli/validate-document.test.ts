/** `l9kit validate --document NAME`: other published documents than the event, each profile, both paths (--jobs). */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { exampleAggregation } from '../../src/schema/index.js'
import { runCli } from '../support/streams.js'
import { testTempDir } from '../support/temp.js'

const aggregation = exampleAggregation()
const good = JSON.stringify(aggregation)
const offsetTime = JSON.stringify({ ...aggregation, update_date: '2026-01-03T11:00:00+01:00' })
const nullPorts = JSON.stringify({ ...aggregation, open_ports: null })

describe('l9kit validate --document', () => {
  it('judges aggregations strictly: a null list and an offset time are errors there', async () => {
    const r = await runCli(['validate', '--document', 'aggregation', '--jobs', '1'], `${good}\n${offsetTime}\n${nullPorts}\n`)
    expect(r.code).toBe(1)
    expect(r.stdout.split('\n')).toEqual([
      expect.stringMatching(/^<stdin>:2: \/update_date: "2026-01-03T11:00:00\+01:00" is not canonical UTC time/),
      '<stdin>:3: /open_ports: expected array, found null',
      '1 valid, 2 invalid',
      '',
    ])
  })

  it('takes both under the lenient profile, and refuses what is not an aggregation', async () => {
    const lenient = await runCli(['validate', '--document', 'aggregation', '--profile', 'lenient'], `${good}\n${offsetTime}\n${nullPorts}\n`)
    expect(lenient).toMatchObject({ code: 0, stdout: '3 valid, 0 invalid\n' })
    const event = JSON.stringify(aggregation.events[0])
    const wrong = await runCli(['validate', '--document', 'aggregation'], `${event}\n`)
    expect(wrong.code).toBe(1)
    expect(wrong.stdout).toContain("<stdin>:1: /resource_id: member 'resource_id' is missing")
  })

  it('gives the same lines with worker threads (--jobs 2) as on the main thread', async () => {
    const file = join(testTempDir('l9kit-validate-document-'), 'lines.jsonl')
    writeFileSync(file, Array.from({ length: 400 }, (_, i) => (i % 7 === 3 ? nullPorts : good)).join('\n') + '\n')
    const one = await runCli(['validate', '--document', 'aggregation', '--jobs', '1', file])
    const two = await runCli(['validate', '--document', 'aggregation', '--jobs', '2', file])
    expect(two.stdout).toBe(one.stdout)
    expect(one.stdout).toMatch(/343 valid, 57 invalid\n$/)
  })

  it('judges the plugins answers, and a root of the wrong kind says which kind', async () => {
    const plugins = JSON.stringify([{ name: 'x', description: 'y', event_count1h: 0, event_count24h: 1, event_count7d: 1 }])
    const r = await runCli(['validate', '--document', 'plugins'], `${plugins}\n{"name":"x"}\n`)
    expect(r.stdout.split('\n')).toEqual(['<stdin>:2: (document): the document must be a JSON array, found object', '1 valid, 1 invalid', ''])
    const one = await runCli(['validate', '--document', 'plugin'], '{"name":"x","description":"y"}\n')
    expect(one).toMatchObject({ code: 0 })
  })

  it('refuses an unknown document name with exit 2', async () => {
    const r = await runCli(['validate', '--document', 'aggregations'], '')
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/--document must be one of event, lookup-result, subdomains, aggregation, plugins, plugin, search-count, error, conform-report/)
  })
})
