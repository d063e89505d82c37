/**
 * Hostile records among valid ones (issue 14): a record nested 50 000 deep, an over-long
 * line, broken JSON, a NUL byte, a huge number, `__proto__` members. Every command keeps every
 * valid record, in order, reports each hostile one by its line, exits 1, prints no stack.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MAX_DEPTH } from '../../src/jsonl/index.js'
import { ingestText, MemoryStore } from '../../src/service/index.js'
import { REPO_ROOT } from '../support/golden.js'
import { runCli } from '../support/streams.js'

const VALID_DIR = join(REPO_ROOT, 'corpus', 'valid')
const valid = readdirSync(VALID_DIR)
  .filter((f) => f.endsWith('.json'))
  .slice(0, 6)
  .map((f) => JSON.stringify(JSON.parse(readFileSync(join(VALID_DIR, f), 'utf8'))))

const deepObject = '{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000)
const deepArray = '['.repeat(50_000) + ']'.repeat(50_000)
/** Hostile lines, each failing on its own; the over-long one is over --max-line-bytes. */
const hostile = [deepObject, deepArray, '{"ip": "192.0.2.1", "port":', '{"ip":"\u0000' + '"}', `{"summary": 1${'0'.repeat(400)}}`, `{"x":"${'y'.repeat(5000)}"}`]
const MAX_LINE = 4096

/** valid[0], hostile[0], valid[1], hostile[1], …: line numbers of the hostile ones are even. */
function mixed(): { text: string; hostileLines: number[] } {
  const lines: string[] = []
  const hostileLines: number[] = []
  for (let i = 0; i < Math.max(valid.length, hostile.length); i++) {
    if (valid[i] !== undefined) lines.push(valid[i]!)
    if (hostile[i] !== undefined) {
      lines.push(hostile[i]!)
      hostileLines.push(lines.length)
    }
  }
  return { text: lines.join('\n') + '\n', hostileLines }
}

const COMMANDS: string[][] = [['normalize'], ['fingerprint'], ['convert', '--from', 'l9'], ['convert', '--from', 'auto'], ['validate', '--profile', 'lenient']]

describe('hostile records among valid ones', () => {
  const { text, hostileLines } = mixed()

  for (const command of COMMANDS) {
    it(`${command.join(' ')}: every valid record comes out, in order; each hostile one is reported; exit 1`, async () => {
      const argv = [...command, '--max-line-bytes', String(MAX_LINE), '-']
      const alone = await Promise.all(valid.map((v) => runCli(argv, v + '\n')))
      for (const a of alone) expect(a.code, a.stderr).toBe(0)
      const run = await runCli(argv, text)
      expect(run.code).toBe(1)
      expect(run.stderr + run.stdout).not.toMatch(/\n\s+at |internal error|RangeError/)
      const report = command[0] === 'validate' ? run.stdout : run.stderr
      for (const line of hostileLines) expect(report, `line ${line}`).toMatch(new RegExp(`<stdin>:${line}:`))
      if (command[0] === 'validate') expect(run.stdout).toContain(`${valid.length} valid, ${hostile.length} invalid`)
      else expect(run.stdout).toBe(alone.map((a) => a.stdout).join(''))
    })
  }

  it('names the bound: too deep is refused with the depth in the message; MAX_DEPTH itself is accepted', async () => {
    const run = await runCli(['normalize', '-'], deepObject + '\n')
    expect(run.stderr).toContain(`nested more than ${MAX_DEPTH} arrays or objects deep`)
    const atBound = JSON.parse(valid[0]!)
    atBound.extra = JSON.parse('['.repeat(MAX_DEPTH - 1) + ']'.repeat(MAX_DEPTH - 1))
    const ok = await runCli(['normalize', '--no-warnings', '-'], JSON.stringify(atBound) + '\n')
    expect(ok.code, ok.stderr).toBe(0)
  })

  it('a JSON array spread over lines: the deep element is refused, the others come out', async () => {
    const doc = `[\n${valid[0]},\n${deepObject},\n${valid[1]}\n]\n`
    for (const command of COMMANDS) {
      // validate reads a JSON array as a list of documents only when told (--array).
      const run = await runCli([...command, ...(command[0] === 'validate' ? ['--array'] : []), '-'], doc)
      expect(run.code, command.join(' ')).toBe(1)
      expect(command[0] === 'validate' ? run.stdout : run.stderr).toContain('<stdin>:3:')
      expect(run.stderr).not.toMatch(/\n\s+at /)
    }
    // Without it the array is one document, refused whole for its depth (named at the deep element).
    const whole = await runCli(['validate', '-'], doc)
    expect(whole.stdout).toMatch(/^<stdin>:3: \(document\): .*nested more than \d+ arrays or objects deep.*\n0 valid, 1 invalid\n$/)
  })

  it('a pretty-printed JSON array with a broken element: the other elements come out, the broken one is named', async () => {
    const elements = valid.slice(0, 3).map((v) => JSON.stringify(JSON.parse(v), null, 2).replace(/^/gm, '  '))
    elements[1] = elements[1]!.replace('"event_type"', '"event_type" "') // a syntax error inside element 2
    const doc = `[\n${elements.join(',\n')}\n]\n`
    const brokenLine = doc.slice(0, doc.indexOf(elements[1]!)).split('\n').length
    const run = await runCli(['normalize', '-'], doc)
    const alone = await runCli(['normalize', '-'], `${valid[0]}\n${valid[2]}\n`)
    expect(run.code).toBe(1)
    expect(run.stdout).toBe(alone.stdout)
    expect(run.stderr).toContain(`<stdin>:${brokenLine}: (document): not valid JSON`)
    expect(run.stderr.split('\n').filter((l) => l.startsWith('<stdin>:'))).toHaveLength(1)
  })

  it('ingest (POST /admin/events and serve --load share it) stores the valid records and rejects the hostile ones by line', async () => {
    const store = new MemoryStore()
    const report = await ingestText(store, text)
    expect(report.rejected.map((r) => r.line).filter((l) => hostileLines.includes(l))).toEqual(hostileLines)
    expect(report.rejected.find((r) => r.line === hostileLines[0])!.errors[0]!.code).toBe('too_deep')
    expect(report.rejected.find((r) => r.line === hostileLines[1])!.errors[0]!.code).toBe('too_deep')
    expect(report.accepted + report.duplicates).toBeGreaterThan(0)
  })
})
