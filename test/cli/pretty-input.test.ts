/**
 * Issue 33, readers: a pretty-printed record (as the tools' READMEs show them, `| jq .`) and a
 * stream of them are read by every command that reads JSON, as jq reads them; several values
 * on one line too. A value spread over lines longer than the bound is a clear error, and the
 * records after it are read.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { emptyEvent } from '../../src/schema/index.js'
import { TOOLS_CORPUS } from '../support/golden.js'
import { runCli } from '../support/streams.js'

/** A corpus file's JSON lines, each pretty-printed as `jq .` prints it. */
function pretty(file: string): { compact: string; pretty: string } {
  const lines = readFileSync(join(TOOLS_CORPUS, file), 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .filter((l) => {
      try {
        JSON.parse(l)
        return true
      } catch {
        return false
      }
    })
  return { compact: `${lines.join('\n')}\n`, pretty: lines.map((l) => `${JSON.stringify(JSON.parse(l), null, 2)}\n`).join('') }
}

const convert = (from: string, stdin: string) => runCli(['convert', '--from', from, '--run-start', '2024-01-02T03:04:05Z'], stdin)

describe('pretty-printed records', () => {
  for (const [format, file] of [
    ['httpx', 'httpx/typical.jsonl'],
    ['tlsx', 'tlsx/typical.jsonl'],
    ['katana', 'katana/typical.jsonl'],
    ['subfinder', 'subfinder/typical.jsonl'],
    ['naabu', 'naabu/typical.jsonl'],
    ['dnsx', 'dnsx/typical.jsonl'],
  ] as const) {
    it(`${format}: one pretty-printed record, and a stream of them, convert as their JSON Lines do`, async () => {
      const { compact, pretty: text } = pretty(file)
      const lines = await convert(format, compact)
      expect(lines.code).toBe(0)
      const first = text.slice(0, text.indexOf('\n}\n') + 3)
      const one = await convert(format, first)
      expect(one).toMatchObject({ code: 0, stderr: expect.stringMatching(/^\d+ converted, 0 skipped\n$/) })
      expect(one.stdout).toBe(lines.stdout.split('\n').slice(0, one.stdout.split('\n').length - 1).join('\n') + '\n')
      expect(await convert(format, text)).toEqual(lines)
      expect(await convert('auto', text)).toEqual(lines)
    })
  }

  const doc = (port: string) => ({ ...emptyEvent(), event_type: 'service', event_source: 'test', ip: '192.0.2.1', port, time: '2024-01-01T00:00:00Z' })
  const stream = [doc('80'), doc('443'), doc('8080')].map((d) => JSON.stringify(d, null, 2)).join('\n')

  it('validate, normalize and fingerprint read a stream of pretty-printed documents as jq does', async () => {
    const compact = [doc('80'), doc('443'), doc('8080')].map((d) => JSON.stringify(d)).join('\n')
    expect(await runCli(['validate', '--profile', 'lenient'], stream)).toMatchObject({ code: 0, stdout: '3 valid, 0 invalid\n' })
    const normalized = await runCli(['normalize'], stream)
    expect(normalized).toEqual(await runCli(['normalize'], compact))
    expect(normalized.stdout.split('\n').filter(Boolean)).toHaveLength(3)
    const fingerprints = await runCli(['fingerprint'], stream)
    expect(fingerprints).toEqual(await runCli(['fingerprint'], compact))
  })

  it('numbers each record by the line it starts on, and reports a broken one there, keeping the others', async () => {
    const broken = `${JSON.stringify(doc('80'), null, 2)}\n{\n  "event_type": "service",\n  "port" "443"\n}\n${JSON.stringify(doc('8080'), null, 2)}\n`
    const r = await runCli(['validate', '--profile', 'lenient'], broken)
    const lines = JSON.stringify(doc('80'), null, 2).split('\n').length
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(new RegExp(`^<stdin>:${lines + 1}: \\(document\\): not valid JSON: .*\\(2 lines further down\\)\\n2 valid, 1 invalid\\n$`))
  })

  it('reads several values on one line, as jq does', async () => {
    const line = `${JSON.stringify(doc('80'))} ${JSON.stringify(doc('443'))}\n`
    expect(await runCli(['validate', '--profile', 'lenient'], line)).toMatchObject({ code: 0, stdout: '2 valid, 0 invalid\n' })
    const r = await convert('l9', line)
    expect(r.stdout.split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { port: string }).port)).toEqual(['80', '443'])
  })

  it('a value spread over lines longer than --max-line-bytes is reported at its start; the records after it are read', async () => {
    const big = JSON.stringify({ ...doc('80'), summary: 'x'.repeat(5000) }, null, 2)
    const r = await runCli(['validate', '--profile', 'lenient', '--max-line-bytes', '4000'], `${big}\n${JSON.stringify(doc('443'), null, 2)}\n`)
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('<stdin>:1: (document): the JSON value starting at line 1 is longer than 4000 bytes (raise --max-line-bytes to accept it)\n1 valid, 1 invalid\n')
  })
})
