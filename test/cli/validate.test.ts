import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { emptyEvent } from '../../src/schema/index.js'
import { documentNames, type Expected, expectationOf, INVALID_DIR, issueKeys, readJson, VALID_DIR } from '../corpus/files.js'
import { runCli } from '../support/streams.js'
import { testTempDir } from '../support/temp.js'

const good = JSON.stringify(emptyEvent())
const bad = JSON.stringify({ ...emptyEvent(), port: 80 })

describe('l9kit validate', () => {
  it('reports problems as file:line: pointer: message and a summary; exit 1', async () => {
    const r = await runCli(['validate'], `${good}\n${bad}\n{oops\n`)
    expect(r.code).toBe(1)
    expect(r.stdout.split('\n')).toEqual([
      '<stdin>:2: /port: expected string, found integer 80',
      expect.stringMatching(/^<stdin>:3: \(document\): not valid JSON/),
      '1 valid, 2 invalid',
      '',
    ])
  })

  it('exits 0 when everything is valid', async () => {
    const r = await runCli(['validate', '-'], `${good}\n${good}\n`)
    expect(r).toMatchObject({ code: 0, stdout: '2 valid, 0 invalid\n' })
  })

  it('writes one JSON object per invalid record, then the counts', async () => {
    const dir = testTempDir('l9kit-')
    const file = join(dir, 'events.jsonl')
    writeFileSync(file, `${bad}\n${good}\n`)
    const r = await runCli(['validate', '--format', 'json', file])
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l))
    expect(lines).toEqual([
      { file, line: 1, errors: [expect.objectContaining({ code: 'wrong_type', pointer: '/port' })], warnings: [] },
      { valid: 1, invalid: 1 },
    ])
  })

  it('accepts lenient documents with --profile lenient', async () => {
    const r = await runCli(['validate', '--profile', 'lenient'], '{"port":80,"transport":null}\n')
    expect(r).toMatchObject({ code: 0, stdout: '1 valid, 0 invalid\n' })
  })

  it('fails with exit 2 and one line, no stack, on a missing file or a bad option', async () => {
    const missing = await runCli(['validate', '/nonexistent/x.jsonl'])
    expect(missing).toMatchObject({ code: 2, stdout: '' })
    expect(missing.stderr).toBe('l9kit validate: /nonexistent/x.jsonl: no such file or directory\n')
    const option = await runCli(['validate', '--profile', 'loose'])
    expect(option).toMatchObject({ code: 2 })
    expect(option.stderr).toContain("--profile must be one of strict, lenient (got 'loose')")
    expect(option.stderr).not.toContain('    at ')
  })

  it('describes every option in --help', async () => {
    const r = await runCli(['validate', '--help'])
    expect(r.code).toBe(0)
    for (const option of ['--profile', '--format', '--no-warnings', '--max-line-bytes', '--array']) expect(r.stdout).toContain(option)
  })

  it('gives every corpus file the verdict its .expected.json names: one JSON text, one document', async () => {
    const invalid = documentNames(INVALID_DIR)
    const r = await runCli(['validate', '--format', 'json', ...invalid.map((name) => join(INVALID_DIR, name))])
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l))
    expect(lines.at(-1)).toEqual({ valid: 0, invalid: invalid.length })
    for (const name of invalid) {
      const reports = lines.filter((l) => l.file === join(INVALID_DIR, name))
      expect(reports, name).toHaveLength(1)
      expect(issueKeys(reports[0].errors), name).toEqual(issueKeys(readJson(INVALID_DIR, expectationOf(name)) as Expected[]))
    }
    const valid = documentNames(VALID_DIR)
    const ok = await runCli(['validate', ...valid.map((name) => join(VALID_DIR, name))])
    expect(ok).toMatchObject({ code: 0, stdout: `${valid.length} valid, 0 invalid\n` })
  })

  it('judges an array as one document (not_object, with a hint); --array judges its elements, on one line or over many', async () => {
    const dir = testTempDir('l9kit-')
    const pretty = join(dir, 'pretty.json')
    writeFileSync(pretty, `[\n  ${good},\n  ${bad}\n]\n`)
    const whole = await runCli(['validate', pretty])
    expect(whole).toMatchObject({ code: 1 })
    expect(whole.stdout).toBe(`${pretty}:1: (document): the document must be a JSON object, found array (a JSON array: --array judges each element as a document)\n0 valid, 1 invalid\n`)
    expect(await runCli(['validate', '--array', pretty])).toMatchObject({ code: 1, stdout: `${pretty}:3: /port: expected string, found integer 80\n1 valid, 1 invalid\n` })
    // One line holding an array, among JSON Lines: the same rule.
    const oneLine = await runCli(['validate'], `${good}\n[${good},${bad}]\n`)
    expect(oneLine.stdout).toMatch(/^<stdin>:2: \(document\): the document must be a JSON object, found array \(a JSON array: /)
    expect(await runCli(['validate', '--array'], `${good}\n[${good},${bad}]\n`)).toMatchObject({ code: 1, stdout: '<stdin>:2: /port: expected string, found integer 80\n2 valid, 1 invalid\n' })
    // A broken array text is one record too, named at the element it breaks in, not once per line.
    const broken = join(dir, 'broken.json')
    writeFileSync(broken, `[\n  ${good},\n  {"oops"\n]\n`)
    const r = await runCli(['validate', broken])
    expect(r.stdout).toMatch(/^.*broken\.json:3: \(document\): not valid JSON.*\(on the line after this one\)\n0 valid, 1 invalid\n$/)
  })
})

describe('l9kit schema', () => {
  it('prints a schema document by name', async () => {
    const r = await runCli(['schema', 'lookup-result'])
    expect(JSON.parse(r.stdout)).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', title: 'Lookup result' })
    expect((await runCli(['schema', 'nope'])).code).toBe(2)
  })
})
