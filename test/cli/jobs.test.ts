/**
 * `--jobs N` (src/cli/parallel) writes byte for byte what `--jobs 1` writes, with the same
 * exit code, for files and for standard input (validate, normalize, fingerprint, convert): same line numbers in every message, same
 * order. Runs the built CLI (dist/cli/main.cjs, as `npm test` builds it first): the worker
 * threads' entry point exists only there. The inputs are above the size at which workers start.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { emptyEvent } from '../../src/schema/index.js'
import { runBuilt } from '../support/built-cli.js'
import { fileTempDir } from '../support/temp.js'

const root = join(import.meta.dirname, '..', '..')
const dir = fileTempDir('l9kit-jobs-')

const run = runBuilt

/**
 * About 6 MB of JSON Lines: mostly valid events, with at known lines an invalid port, text
 * that is not JSON, blank lines, CRLF ends, an unknown member, a line over 100 000 bytes, a
 * pretty-printed document and a pretty-printed array,
 * leak values outside the known lists, a byte order mark first and no newline after the last line.
 */
function input(): { path: string; bad: number[] } {
  const lines: string[] = []
  const bad: number[] = []
  let next = 1 // the file's line number of the next text (a pretty-printed one takes several)
  for (let i = 0; lines.length < 9000; i++) {
    const event = { ...emptyEvent(), event_type: 'service', event_source: 'jobs-test', ip: `192.0.2.${i % 250}`, port: String(i % 65536), summary: `line ${lines.length + 1}\n${'x'.repeat(400 + (i % 300))}` }
    const n = next
    // Canonical lines with leak values the strict profile warns about (validate's short way must not vouch for them).
    if (n % 601 === 0) event.leak = { ...event.leak, stage: 'open', severity: 'urgent' }
    else if (n % 701 === 0) event.leak = { ...event.leak, stage: 'op"en', severity: 'high' }
    let text = JSON.stringify(event)
    if (n % 97 === 0) (text = text.replace('"port":"', '"port":"x')), bad.push(n)
    else if (n % 211 === 0) (text = '{not json'), bad.push(n)
    else if (n % 307 === 0) text = ''
    else if (n % 401 === 0) text += '\r'
    else if (n % 503 === 0) text = text.replace('{', '{"extra":1,')
    else if (n % 2999 === 0) (text = `{"summary":"${'y'.repeat(150_000)}"}`), bad.push(n)
    // Values spread over lines (issue 33): a pretty-printed document, and a pretty-printed array
    // (one document for validate, not an event: not_object; its elements for the others).
    else if (n % 1201 === 0) text = JSON.stringify(event, null, 2)
    else if (n % 2003 === 0) (text = `[\n  ${text},\n  ${text}\n]`), bad.push(n)
    lines.push(text)
    next += text.split('\n').length
  }
  const path = join(dir, 'input.jsonl')
  writeFileSync(path, '\uFEFF' + lines.join('\n'))
  return { path, bad }
}

const { path, bad } = input()

describe('--jobs', () => {
  it('is built: the worker entry point is beside the CLI', () => {
    expect(existsSync(join(root, 'dist', 'cli', 'jobs-worker.js'))).toBe(true)
  })

  const commands: [string, string[]][] = [
    ['validate', ['validate', '--max-line-bytes', '100000']],
    ['validate --format json --profile lenient', ['validate', '--format', 'json', '--profile', 'lenient']],
    ['normalize', ['normalize', '--fingerprint', 'v1', '--max-line-bytes', '100000']],
    ['normalize --check --escape go', ['normalize', '--check', '--escape', 'go']],
    ['fingerprint', ['fingerprint', '--algo', 'v2']],
  ]
  for (const [name, args] of commands) {
    it(`${name}: --jobs 2 and 3 write what --jobs 1 writes, from a file and from stdin`, async () => {
      const one = await run([...args, '--jobs', '1', path])
      expect(one.code).toBe(1)
      for (const jobs of ['2', '3']) expect(await run([...args, '--jobs', jobs, path])).toEqual(one)
      const oneIn = await run([...args, '--jobs', '1'], path)
      expect(await run([...args, '--jobs', '2'], path)).toEqual(oneIn)
      expect(oneIn.stdout + oneIn.stderr).toContain('<stdin>')
    }, 360_000)
  }

  /** ~5 MB of a tool's JSON Lines, from the corpus, with a line that is not JSON every 89 records. */
  function toolInput(tool: string, file = 'typical.jsonl'): string {
    const records = readFileSync(join(root, 'corpus', 'tools', tool, file), 'utf8').split('\n').filter((l) => l.startsWith('{'))
    const lines: string[] = []
    for (let i = 0, size = 0; size < 5_000_000; i++) {
      const line = i % 89 === 88 ? '{oops' : records[i % records.length]!
      lines.push(line)
      size += line.length + 1
    }
    const path = join(dir, `${tool}.jsonl`)
    writeFileSync(path, `${lines.join('\n')}\n{"truncated":`)
    return path
  }

  const conversions: [string, string, string?][] = [
    ['httpx', 'l9'],
    ['httpx', 'csv'],
    // dnsx events have no port: every one is skipped by name, "event N", numbered across blocks.
    ['dnsx', 'hostport'],
    ['nuclei', 'l9'],
    ['masscan-ndjson', 'url', 'typical.ndjson'],
  ]
  for (const [tool, to, file] of conversions) {
    it(`convert --from ${tool} --to ${to}: --jobs 2 writes what --jobs 1 writes`, async () => {
      const path = toolInput(tool, file)
      const args = ['convert', '--from', tool, '--to', to, '--run-start', '2024-09-23T12:00:00Z']
      const one = await run([...args, '--jobs', '1', path])
      expect(one.code).toBe(1)
      expect(one.stderr).toMatch(/truncated final record/)
      expect(await run([...args, '--jobs', '2', path])).toEqual(one)
      expect(await run([...args, '--jobs', '2'], path)).toEqual(await run([...args, '--jobs', '1'], path))
    }, 360_000)
  }

  it('convert --from l9 (event documents, which may also be one array over lines): --jobs 2 writes what --jobs 1 writes', async () => {
    const args = ['convert', '--from', 'l9', '--to', 'csv']
    const one = await run([...args, '--jobs', '1', path])
    expect(one.code).toBe(1)
    expect(await run([...args, '--jobs', '2', path])).toEqual(one)
    expect(await run([...args, '--jobs', '2'], path)).toEqual(await run([...args, '--jobs', '1'], path))
  }, 360_000)

  it('names the exact line of each problem', async () => {
    const { stdout } = await run(['validate', '--jobs', '2', '--no-warnings', '--max-line-bytes', '100000', path])
    const named = [...stdout.matchAll(/^.*input\.jsonl:(\d+): /gm)].map((m) => Number(m[1]))
    expect([...new Set(named)]).toEqual(bad)
  }, 180_000)

  it('keeps the --rejects file in input order', async () => {
    const rejects = (jobs: string) => join(dir, `rejects-${jobs}.jsonl`)
    for (const jobs of ['1', '2']) await run(['normalize', '--jobs', jobs, '--rejects', rejects(jobs), path])
    expect(readFileSync(rejects('2'), 'utf8')).toBe(readFileSync(rejects('1'), 'utf8'))
    expect(readFileSync(rejects('1'), 'utf8').split('\n').length).toBeGreaterThan(10)
  }, 180_000)

  // Workers are started as the process starts when an argument names a large file
  // (src/cli/parallel/prestart.ts); an input that turns out not to need them must not hang.
  it('a large input that is one JSON array over many lines: same output as --jobs 1, and the process ends', async () => {
    const events = readFileSync(path, 'utf8').replace(/^\uFEFF/, '').split('\n').filter((l) => l.startsWith('{"event_type"')).slice(0, 6000)
    const array = join(dir, 'array.json')
    writeFileSync(array, `[\n${events.join(',\n')}\n]\n`)
    const one = await run(['validate', '--array', '--jobs', '1', array])
    expect(statSync(array).size).toBeGreaterThan(4 << 20) // over the size that starts workers early
    expect(one.stdout).toMatch(/^\d{4} valid, \d+ invalid$/m)
    expect(await run(['validate', '--array', '--jobs', '2', array])).toEqual(one)
  }, 180_000)

  it('validate --array: JSON Lines whose lines may hold arrays of documents give what --jobs 1 gives', async () => {
    const events = readFileSync(path, 'utf8').replace(/^\uFEFF/, '').split('\n').filter((l) => l.startsWith('{"event_type"')).slice(0, 6000)
    const lines = events.map((e, i) => (i % 50 === 0 ? `[${e},${e},[${e}]]` : e))
    const file = join(dir, 'array-lines.jsonl')
    writeFileSync(file, `${lines.join('\n')}\n`)
    expect(statSync(file).size).toBeGreaterThan(4 << 20) // large enough for the workers
    const one = await run(['validate', '--array', '--jobs', '1', file])
    // Each array line is three records: two documents and one nested array (not an event document).
    const arrays = lines.filter((l) => l.startsWith('[')).length
    const [valid, invalid] = one.stdout.match(/^(\d+) valid, (\d+) invalid$/m)!.slice(1).map(Number) as [number, number]
    expect(valid + invalid).toBe(lines.length + 2 * arrays)
    expect(one.stdout).toMatch(/^.*array-lines\.jsonl:1: \(document\): the document must be a JSON object, found array$/m)
    expect(await run(['validate', '--array', '--jobs', '2', file])).toEqual(one)
  }, 180_000)

  it('a usage error with a large file named: exit 2, and the process ends', async () => {
    const result = await run(['validate', '--jobs', '2', '--profile', 'nope', path])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/--profile/)
  }, 180_000)

  it('refuses a --jobs that is not a positive integer', async () => {
    const result = await run(['validate', '--jobs', '0', path])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/--jobs must be a positive integer/)
    // Each job is a thread with its own heap: a mistyped count is refused, not run out of memory.
    const many = await run(['validate', '--jobs', '99999', path])
    expect(many.code).toBe(2)
    expect(many.stderr).toMatch(/--jobs must be at most 64/)
  })
})
