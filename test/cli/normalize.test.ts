import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { emptyEvent } from '../../src/schema/index.js'
import { runBuilt } from '../support/built-cli.js'
import { runCli } from '../support/streams.js'
import { testTempDir } from '../support/temp.js'

const canonical = JSON.stringify({ ...emptyEvent(), event_type: 'service', port: '80', transport: ['tcp', 'http'] })
const lenient = '{"event_type":"synack","port":443,"transport":null,"time":"2023-01-02T03:04:05.123456789+02:00"}'

describe('l9kit normalize', () => {
  it('writes canonical JSON Lines, canonical input byte for byte; exit 0', async () => {
    const r = await runCli(['normalize'], `${canonical}\n\r\n${lenient}\r\n`)
    expect(r.code).toBe(0)
    expect(r.stderr).toBe('')
    const lines = r.stdout.split('\n')
    expect(lines).toHaveLength(3)
    expect(lines[0]).toBe(canonical)
    const second = JSON.parse(lines[1]!)
    expect(Object.keys(second)).toEqual(Object.keys(emptyEvent()))
    expect(second).toMatchObject({ event_type: 'synack', port: '443', transport: [], time: '2023-01-02T01:04:05.123456789Z' })
    expect(lines[2]).toBe('')
  })

  it('reports failures as file:line: pointer: message, keeps going, writes rejects unchanged; exit 1', async () => {
    const dir = testTempDir('l9kit-normalize-')
    const file = join(dir, 'in.jsonl')
    const rejects = join(dir, 'rejects.jsonl')
    const bad = '{"port":"http", "time":"2023-02-30T00:00:00Z"}'
    writeFileSync(file, `${lenient}\n${bad}\n{oops\n${canonical}\n`)
    const r = await runCli(['normalize', file, '--rejects', rejects])
    expect(r.code).toBe(1)
    expect(r.stdout.trim().split('\n')).toHaveLength(2)
    expect(r.stderr.split('\n')).toEqual([
      `${file}:2: /port: "http" is not a port number 0–65535`,
      `${file}:2: /time: day 30 does not exist: February 2023 has 28 days`,
      expect.stringMatching(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3: \\(document\\): not valid JSON`)),
      'normalize: 2 normalised, 2 failed',
      '',
    ])
    expect(readFileSync(rejects, 'utf8')).toBe(`${bad}\n{oops\n`)
  })

  it('applies --header-case and --fingerprint', async () => {
    const doc = '{"event_source":"testing","summary":"test\\ntest\\n","http":{"header":{"Server":"a","server":"b"}}}'
    const r = await runCli(['normalize', '--header-case', 'lower', '--fingerprint', 'missing'], doc)
    const out = JSON.parse(r.stdout)
    expect(out.http.header).toEqual({ server: 'a, b' })
    expect(out.event_fingerprint).toBe('5a2c67df7b758a1eb5b5f87eed5caddeed5caddeed5caddeed5caddefe9efc5e')
    const kept = await runCli(['normalize'], doc)
    expect(JSON.parse(kept.stdout).event_fingerprint).toBe('')
    expect(JSON.parse(kept.stdout).http.header).toEqual({ Server: 'a', server: 'b' })
  })

  it('reports unknown members as warnings (not failures), unless --no-warnings', async () => {
    const r = await runCli(['normalize'], '{"event_type":"service","x_extra":1}\n')
    expect(r.code).toBe(0)
    expect(r.stderr).toBe("<stdin>:1: /x_extra: warning: member 'x_extra' is not part of the format; kept as is\n")
    expect(JSON.parse(r.stdout).x_extra).toBe(1)
    expect((await runCli(['normalize', '--no-warnings'], '{"event_type":"service","x_extra":1}\n')).stderr).toBe('')
    // With none of the format's members it is not an event document (validate/event-rule.ts).
    expect(await runCli(['normalize'], '{"x_extra":1}\n')).toMatchObject({ code: 1, stdout: '' })
  })

  it('keeps __proto__ / constructor header names as data through the command', async () => {
    const doc = '{"http":{"header":{"__proto__":"a","constructor":"b","Prototype":"c"}}}'
    for (const headerCase of ['keep', 'lower']) {
      const r = await runCli(['normalize', '--header-case', headerCase], doc)
      expect(r.code).toBe(0)
      expect(r.stdout).toContain(headerCase === 'keep' ? '"header":{"Prototype":"c","__proto__":"a","constructor":"b"}' : '"header":{"__proto__":"a","constructor":"b","prototype":"c"}')
      const check = await runCli(['validate'], r.stdout)
      expect(check).toMatchObject({ code: 0, stdout: '1 valid, 0 invalid\n' })
    }
    expect(({} as Record<string, unknown>).a).toBeUndefined()
    expect(Object.prototype.constructor).toBe(Object)
  })

  it('normalises a JSON array file element by element', async () => {
    const r = await runCli(['normalize'], `[\n  {"port": 22},\n  {"port": 23}\n]\n`)
    expect(r.code).toBe(0)
    expect(r.stdout.trim().split('\n').map((l) => JSON.parse(l).port)).toEqual(['22', '23'])
  })

  it('fails with exit 2 and one line on usage and I/O errors', async () => {
    const option = await runCli(['normalize', '--header-case', 'upper'])
    expect(option).toMatchObject({ code: 2, stdout: '' })
    expect(option.stderr).toContain("--header-case must be one of keep, lower (got 'upper')")
    const fp = await runCli(['normalize', '--fingerprint', 'v3'])
    expect(fp.code).toBe(2)
    const missing = await runCli(['normalize', '/nonexistent/in.jsonl'])
    expect(missing).toMatchObject({ code: 2, stderr: 'l9kit normalize: /nonexistent/in.jsonl: no such file or directory\n' })
    const rejects = await runCli(['normalize', '--rejects', '/nonexistent/dir/rejects.jsonl'], canonical)
    expect(rejects).toMatchObject({ code: 2, stdout: '' })
    expect(rejects.stderr).not.toContain('    at ')
  })

  it('--check writes no document, names each record that is not canonical as file:line; exit 1, or 0 when all are', async () => {
    const dir = testTempDir('l9kit-normalize-check-')
    const file = join(dir, 'in.jsonl')
    const unsorted = canonical.replace('"header":{}', '"header":{"b":"1","A":"2"}')
    writeFileSync(file, `${canonical}
${lenient}
{oops
${unsorted}
`)
    const r = await runCli(['normalize', '--check', file])
    expect(r.code).toBe(1)
    expect(r.stdout).toBe(`${file}:2
${file}:3
${file}:4
`)
    expect(r.stderr).toMatch(new RegExp(`:3: \\(document\\): not valid JSON[^\n]*\nnormalize --check: 3 of 4 not canonical\n$`))
    // What normalize writes passes --check, with either header order; and normalising it again changes nothing.
    for (const order of ['sorted', 'input']) {
      const out = await runCli(['normalize', '--header-order', order], `${canonical}\n${lenient}\n${unsorted}\n`)
      writeFileSync(file, out.stdout)
      expect(await runCli(['normalize', '--check', '--header-order', order, file])).toEqual({ code: 0, stdout: '', stderr: 'normalize --check: all 3 canonical\n' })
      expect((await runCli(['normalize', '--header-order', order, file])).stdout).toBe(out.stdout)
    }
    // The input-order output keeps the map that is not sorted: not canonical in byte order.
    expect(await runCli(['normalize', '--check', file])).toMatchObject({ code: 1, stdout: `${file}:3\n` })
    // Plain canonical text with '&' is not canonical under --escape go.
    writeFileSync(file, `${canonical.replace('"summary":""', '"summary":"a&b"')}\n`)
    expect(await runCli(['normalize', '--check', file])).toMatchObject({ code: 0 })
    expect(await runCli(['normalize', '--check', '--escape', 'go', file])).toMatchObject({ code: 1, stdout: `${file}:1\n` })
    expect(await runCli(['normalize', '--check', '--rejects', join(dir, 'r.jsonl'), file])).toMatchObject({ code: 2, stdout: '' })
  })

  it('--check names CR LF lines and a line after a byte order mark: normalize rewrites them (LF, no mark), so they are not canonical', async () => {
    const dir = testTempDir('l9kit-normalize-crlf-')
    const file = join(dir, 'crlf.jsonl')
    writeFileSync(file, `\ufeff${canonical}\n${canonical}\r\n${canonical}\n`)
    expect((await runCli(['normalize', file])).stdout).toBe(`${canonical}\n`.repeat(3))
    expect(await runCli(['normalize', '--check', file])).toEqual({ code: 1, stdout: `${file}:1\n${file}:2\n`, stderr: 'normalize --check: 2 of 3 not canonical\n' })
    // What normalize wrote is canonical.
    writeFileSync(file, (await runCli(['normalize', file])).stdout)
    expect(await runCli(['normalize', '--check', file])).toMatchObject({ code: 0, stdout: '' })
    // --jobs workers (large inputs) judge alike.
    const big = join(dir, 'big.jsonl')
    writeFileSync(big, `\ufeff${Array.from({ length: 4000 }, (_, i) => `${canonical}${i % 1000 === 999 ? '\r' : ''}`).join('\n')}\n`)
    const named = ['1', '1000', '2000', '3000', '4000'].map((n) => `${big}:${n}\n`).join('')
    for (const jobs of ['1', '2']) expect(await runBuilt(['normalize', '--check', '--jobs', jobs, big]), `--jobs ${jobs}`).toMatchObject({ code: 1, stdout: named })
  }, 180_000)

  it('says when it replaces bytes that are not UTF-8 with U+FFFD; --check names the line; validate agrees (lenient: a warning, strict: an error)', async () => {
    const dir = testTempDir('l9kit-normalize-utf8-')
    const file = join(dir, 'latin1.jsonl')
    const [head, tail] = canonical.split('"summary":""')
    const bad = Buffer.concat([Buffer.from(`${head}"summary":"caf`), Buffer.from([0xe9]), Buffer.from(`"${tail}`)])
    writeFileSync(file, Buffer.concat([Buffer.from(`${canonical}\n`), bad, Buffer.from('\n')]))
    const warning = `${file}:2: (document): warning: bytes that are not UTF-8 were read as U+FFFD, one for each byte (as the original tools read them)\n`
    const r = await runCli(['normalize', file])
    expect(r).toEqual({ code: 0, stdout: `${canonical}\n${canonical.replace('"summary":""', '"summary":"caf\ufffd"')}\n`, stderr: warning })
    expect(await runCli(['normalize', '--check', file])).toMatchObject({ code: 1, stdout: `${file}:2\n` })
    const lenient = await runCli(['validate', '--profile', 'lenient', file])
    expect(lenient).toEqual({ code: 0, stdout: `${warning}2 valid, 0 invalid\n`, stderr: '' })
    const strict = await runCli(['validate', file])
    expect(strict.code).toBe(1)
    expect(strict.stdout).toContain(`${file}:2: (document): bytes that are not UTF-8 were read as U+FFFD`)
    // --jobs workers say the same.
    const big = join(dir, 'big.jsonl')
    writeFileSync(big, Buffer.concat([...Array.from({ length: 3000 }, () => Buffer.from(`${canonical}\n`)), bad, Buffer.from('\n')]))
    expect((await runBuilt(['normalize', '--jobs', '2', big])).stderr).toBe(warning.replace(`${file}:2`, `${big}:3001`))
    expect((await runBuilt(['validate', '--profile', 'lenient', '--jobs', '2', big])).stdout).toBe(`${warning.replace(`${file}:2`, `${big}:3001`)}3001 valid, 0 invalid\n`)
    // One thread, past the record count where validate takes its short way for canonical lines, says it too.
    expect((await runBuilt(['validate', '--profile', 'lenient', '--jobs', '1'], big)).stdout).toBe(`${warning.replace(`${file}:2`, '<stdin>:3001')}3001 valid, 0 invalid\n`)
  }, 180_000)

  it('--escape go writes Go’s escapes; --header-order input keeps the input order; bad values are usage errors', async () => {
    const doc = '{"summary":"<a href=x&y>\u2028\\b","http":{"header":{"b":"1","10":"3","9":"2","A":"4"}}}'
    const go = await runCli(['normalize', '--escape', 'go'], doc)
    expect(go.stdout).toContain('"summary":"\\u003ca href=x\\u0026y\\u003e\\u2028\\u0008"')
    expect(go.stdout).toContain('"header":{"10":"3","9":"2","A":"4","b":"1"}')
    const input = await runCli(['normalize', '--header-order', 'input'], doc)
    // Index-like names come first whatever the order asked: JavaScript objects list them so.
    expect(input.stdout).toContain('"header":{"9":"2","10":"3","b":"1","A":"4"}')
    expect(input.stdout).toContain('"summary":"<a href=x&y>\u2028\\b"')
    const bad = await runCli(['normalize', '--escape', 'html'], doc)
    expect(bad).toMatchObject({ code: 2, stdout: '' })
    expect(bad.stderr).toContain("--escape must be one of plain, go (got 'html')")
    expect((await runCli(['normalize', '--header-order', 'random'], doc)).code).toBe(2)
  })

  it('describes every option in --help', async () => {
    const r = await runCli(['normalize', '--help'])
    expect(r.code).toBe(0)
    for (const option of ['--header-case', '--fingerprint', '--rejects', '--no-warnings', '--max-line-bytes', '--header-order', '--escape', '--check', 'keep|lower', 'keep|v1|v2|missing', 'sorted|input', 'plain|go', 'Exit status']) {
      expect(r.stdout).toContain(option)
    }
  })
})
