/**
 * `normalize --jobs N` copies a line's own bytes around the normaliser's edits when it can
 * (src/cli/parallel/output.ts) instead of encoding the text again: the bytes written must be
 * those `--jobs 1` writes, for lines the rewrite pattern fixes in place (a port as a number,
 * `null` lists, a status as a string), with characters outside ASCII (two-, three- and
 * four-byte UTF-8) before and after the edits, invalid UTF-8 (written as U+FFFD, not copied),
 * a U+FFFD of the input's own, CRLF ends, canonical lines, and lines that need the long way.
 * Compared as bytes: decoding the output would hide a byte written wrong. Also for lines of
 * very different sizes from block to block (memory reused from block to block).
 */
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { emptyEvent } from '../../src/schema/index.js'
import { BUILT_CLI } from '../support/built-cli.js'
import { fileTempDir } from '../support/temp.js'

const dir = fileTempDir('l9kit-jobs-bytes-')

/** ~6 MB of lenient event lines, some with other bytes as the doc comment lists. */
function input(): string {
  const lines: Buffer[] = []
  let size = 0
  for (let i = 0; size < 6_000_000; i++) {
    const event = {
      ...emptyEvent(),
      event_type: 'service',
      event_source: 'jobs-bytes',
      ip: `192.0.2.${i % 250}`,
      host: ['café.example', 'example.com', '例え.jp', 'x😀.example'][i % 4]!,
      summary: `${['Î', 'ü', '€', '𝄞', 'a'][i % 5]!.repeat(1 + (i % 7))} ${'lorem ipsum '.repeat(40 + (i % 50))}${['Ω', '', '\ufffd'][i % 3]!}`,
    }
    // As tools write them: the port a number, the status a string, null for empty lists.
    const lenient = { ...event, port: i % 65536, tags: null, http: { ...event.http, status: String(200 + (i % 5)) } }
    let line = Buffer.from(JSON.stringify(i % 11 === 0 ? event : lenient))
    if (i % 13 === 0) line = Buffer.concat([line.subarray(0, 200), Buffer.from([0xc3, 0x28, 0xe2, 0x82]), line.subarray(200)]) // invalid UTF-8 in the summary
    else if (i % 17 === 0) line = Buffer.concat([line, Buffer.from('\r')])
    else if (i % 19 === 0) line = Buffer.from(JSON.stringify({ ...lenient, port: '0080', http: { ...lenient.http, header: { B: 'b', a: 'ä' } } })) // the long way
    lines.push(line, Buffer.from('\n'))
    size += line.length + 1
  }
  const path = join(dir, 'lenient.jsonl')
  writeFileSync(path, Buffer.concat(lines))
  return path
}

const path = input()

const run = (args: string[]) => {
  const result = spawnSync(process.execPath, [BUILT_CLI, 'normalize', ...args, path], { maxBuffer: 1 << 30 })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

/**
 * Lenient lines whose size changes by a thousand times from one stretch of blocks to the next:
 * the memory of one block's output and input is reused for later blocks (output.ts,
 * read-here.ts), and none of what it held may show.
 */
function unevenInput(): string {
  const lines: string[] = []
  for (const [count, summary] of [[300, 20_000], [20_000, 0], [150, 40_000], [10_000, 100], [200, 20_000]] as const) {
    for (let i = 0; i < count; i++) {
      const event = { ...emptyEvent(), event_type: 'service', event_source: 'uneven', ip: `192.0.2.${i % 250}`, summary: 'ab'.repeat(summary / 2 + (i % 7)) }
      lines.push(JSON.stringify({ ...event, port: i % 65536, tags: null }))
    }
  }
  const path = join(dir, 'uneven.jsonl')
  writeFileSync(path, `${lines.join('\n')}\n`)
  return path
}

describe('normalize --jobs: the bytes of --jobs 1', () => {
  it('for lines of very different sizes from block to block', () => {
    const uneven = unevenInput()
    const run = (jobs: string) => spawnSync(process.execPath, [BUILT_CLI, 'normalize', '--jobs', jobs, uneven], { maxBuffer: 1 << 30 })
    const one = run('1')
    expect(one.status).toBe(0)
    expect(one.stdout.length).toBeGreaterThan(20_000_000)
    for (const jobs of ['2', '3']) expect(Buffer.compare(run(jobs).stdout, one.stdout)).toBe(0)
  }, 360_000)

  for (const options of [[], ['--escape', 'go'], ['--header-case', 'lower', '--fingerprint', 'v1']]) {
    it(`${options.join(' ') || 'defaults'}: --jobs 2 and 3 write the bytes --jobs 1 writes`, () => {
      const rejects = (jobs: string) => join(dir, `rejects-${jobs}.jsonl`)
      const one = run([...options, '--jobs', '1', '--rejects', rejects('1')])
      expect(one.stdout.length).toBeGreaterThan(5_000_000)
      // The invalid bytes come out as U+FFFD: nothing of them was copied.
      expect(one.stdout.includes(Buffer.from([0xc3, 0x28]))).toBe(false)
      expect(one.stdout.includes(Buffer.from('\ufffd'))).toBe(true)
      for (const jobs of ['2', '3']) {
        const many = run([...options, '--jobs', jobs, '--rejects', rejects(jobs)])
        expect(many.code).toBe(one.code)
        expect(Buffer.compare(many.stdout, one.stdout)).toBe(0)
        expect(many.stderr.toString()).toBe(one.stderr.toString())
        expect(readFileSync(rejects(jobs))).toEqual(readFileSync(rejects('1')))
      }
    }, 360_000)
  }
})
