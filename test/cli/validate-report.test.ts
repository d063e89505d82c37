/**
 * `validate --format sarif|junit`. SARIF is validated against SARIF 2.1.0's own JSON Schema
 * (sarif-2.1.0-rtm.5.json, shipped by the pinned dev dependency @microsoft/jest-sarif, a
 * draft-04 schema: ajv-draft-04). No JUnit XML schema could be obtained here, so the JUnit
 * report gets a structural check of the Ant/Jenkins dialect test reporters read: parsed by a
 * strict XML parser, the elements, attributes and counts the dialect defines.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import AjvDraft04 from 'ajv-draft-04'
import addFormats from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import { emptyEvent } from '../../src/schema/index.js'
import { childrenNamed, parseXml } from '../conformance/junit-tree.js'
import { runBuilt } from '../support/built-cli.js'
import { runCli } from '../support/streams.js'
import { fileTempDir } from '../support/temp.js'

const require = createRequire(import.meta.url)
const sarifSchema = JSON.parse(readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8')) as object
// The schema's language-tag pattern is not valid under the `u` flag ajv uses by default.
const ajv = new AjvDraft04.default({ allErrors: true, strict: false, unicodeRegExp: false })
addFormats.default(ajv)
const validSarif = ajv.compile(sarifSchema)

const dir = fileTempDir('l9kit-report-')
const good = JSON.stringify(emptyEvent())
const badPort = JSON.stringify({ ...emptyEvent(), port: 80 })
const warned = JSON.stringify({ ...emptyEvent(), x_extra: 1 })
const a = join(dir, 'a.jsonl')
const b = join(dir, 'b.jsonl')
writeFileSync(a, `${good}\n${badPort}\n{oops\n${warned}\n`)
writeFileSync(b, `${good}\n${good}\n`)

describe('validate --format sarif', () => {
  it('is a SARIF 2.1.0 log: valid against its schema, a result per problem with file, line and pointer', async () => {
    const r = await runCli(['validate', '--format', 'sarif', a, b])
    expect(r.code).toBe(1)
    const log = JSON.parse(r.stdout) as { runs: { results: any[]; tool: { driver: { rules: { id: string }[] } } }[] }
    expect(validSarif(log), JSON.stringify(validSarif.errors?.slice(0, 3))).toBe(true)
    const results = log.runs[0]!.results
    expect(results.map((x) => [x.ruleId, x.level, x.locations[0].physicalLocation.region.startLine])).toEqual([
      ['wrong_type', 'error', 2],
      ['bad_json', 'error', 3],
      ['unknown_member', 'warning', 4],
    ])
    expect(results[0].locations[0].physicalLocation.artifactLocation.uri).toBe(a.split('/').map(encodeURIComponent).join('/'))
    expect(results[0].locations[0].logicalLocations).toEqual([{ fullyQualifiedName: '/port', kind: 'member' }])
    expect(log.runs[0]!.tool.driver.rules.map((rule) => rule.id)).toEqual(['bad_json', 'unknown_member', 'wrong_type'])
  })

  it('stays valid with --max-errors (a notification says how many were left out) and when all is valid', async () => {
    const limited = JSON.parse((await runCli(['validate', '--format', 'sarif', '--max-errors', '1', a])).stdout) as any
    expect(validSarif(limited)).toBe(true)
    expect(limited.runs[0].results).toHaveLength(1)
    expect(limited.runs[0].invocations[0].toolExecutionNotifications[0].message.text).toBe('2 more records with problems not shown (--max-errors 1)')
    const clean = await runCli(['validate', '--format', 'sarif', b])
    expect(clean.code).toBe(0)
    expect(validSarif(JSON.parse(clean.stdout))).toBe(true)
  })

  it('--jobs workers give the same log', async () => {
    const big = join(dir, 'big.jsonl')
    writeFileSync(big, Array.from({ length: 5000 }, (_, i) => (i % 100 === 7 ? badPort : good)).join('\n') + '\n')
    const one = await runBuilt(['validate', '--format', 'sarif', '--jobs', '1', big])
    expect(await runBuilt(['validate', '--format', 'sarif', '--jobs', '2', big])).toEqual(one)
    expect((JSON.parse(one.stdout) as any).runs[0].results).toHaveLength(50)
  }, 180_000)
})

describe('validate --format junit', () => {
  it('is JUnit XML of the Ant/Jenkins dialect: a suite per input, a failed case per invalid record', async () => {
    const r = await runCli(['validate', '--format', 'junit', a, b])
    expect(r.code).toBe(1)
    const root = parseXml(r.stdout)
    expect(r.stdout.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true)
    expect(root.name).toBe('testsuites')
    const suites = childrenNamed(root, 'testsuite')
    expect(suites.map((s) => s.attributes.name)).toEqual([a, b])
    let tests = 0
    let failures = 0
    for (const suite of suites) {
      const cases = childrenNamed(suite, 'testcase')
      expect(Number(suite.attributes.tests)).toBe(cases.length)
      expect(Number(suite.attributes.failures)).toBe(cases.filter((c) => childrenNamed(c, 'failure').length > 0).length)
      expect(suite.attributes.errors).toBe('0')
      for (const c of cases) {
        expect(Object.keys(c.attributes).sort()).toEqual(['classname', 'name'])
        for (const f of childrenNamed(c, 'failure')) expect(Object.keys(f.attributes).sort()).toEqual(['message', 'type'])
        for (const child of c.children) expect(['failure', 'system-out']).toContain(child.name)
      }
      tests += cases.length
      failures += Number(suite.attributes.failures)
    }
    expect([Number(root.attributes.tests), Number(root.attributes.failures)]).toEqual([tests, failures])
    const [first, second] = suites
    expect(childrenNamed(first!, 'testcase').map((c) => [c.attributes.name, c.children.map((x) => x.name).join()])).toEqual([
      [`${a}:2`, 'failure'],
      [`${a}:3`, 'failure'],
      [`${a}:4`, 'system-out'],
      [`${a}: 1 valid document`, ''],
    ])
    expect(childrenNamed(childrenNamed(first!, 'testcase')[0]!, 'failure')[0]!.attributes).toEqual({ message: `${a}:2: /port: expected string, found integer 80`, type: 'wrong_type' })
    expect(childrenNamed(second!, 'testcase').map((c) => c.attributes.name)).toEqual([`${b}: 2 valid documents`])
  })

  it('notes records left out by --max-errors in the last suite', async () => {
    const r = await runCli(['validate', '--format', 'junit', '--max-errors', '1', a])
    const suite = childrenNamed(parseXml(r.stdout), 'testsuite')[0]!
    expect(childrenNamed(suite, 'system-out')[0]!.text).toBe('2 more records with problems not shown (--max-errors 1)')
  })

  it('fails every input with an invalid record, whatever --max-errors leaves out (no passing case for an invalid file)', async () => {
    const files = Array.from({ length: 5 }, (_, i) => join(dir, `invalid-${i}.jsonl`))
    for (const file of files) writeFileSync(file, `${badPort}\n`)
    const mixed = join(dir, 'mixed.jsonl')
    writeFileSync(mixed, `${good}\n${badPort}\n${badPort}\n`)
    const r = await runCli(['validate', '--format', 'junit', '--max-errors', '2', ...files, mixed])
    expect(r.code).toBe(1)
    const root = parseXml(r.stdout)
    const suites = childrenNamed(root, 'testsuite')
    const failedCases = (suite: (typeof suites)[number]) => childrenNamed(suite, 'testcase').filter((c) => childrenNamed(c, 'failure').length > 0)
    for (const suite of suites) {
      expect(Number(suite.attributes.failures), suite.attributes.name).toBeGreaterThan(0)
      expect(Number(suite.attributes.failures)).toBe(failedCases(suite).length)
      expect(Number(suite.attributes.tests)).toBe(childrenNamed(suite, 'testcase').length)
    }
    // Files 3 to 5 were left out entirely: a failed case says so, and no "0 valid documents" passes.
    expect(childrenNamed(suites[4]!, 'testcase').map((c) => c.attributes.name)).toEqual([`${files[4]}: 1 more invalid record not shown (--max-errors 2)`])
    expect(r.stdout).not.toContain('0 valid documents')
    // The mixed file: its valid document passes, its two invalid records fail (one case for both).
    expect(childrenNamed(suites[5]!, 'testcase').map((c) => [c.attributes.name, c.children.map((x) => x.name).join()])).toEqual([
      [`${mixed}: 2 more invalid records not shown (--max-errors 2)`, 'failure'],
      [`${mixed}: 1 valid document`, ''],
    ])
    expect(Number(root.attributes.failures)).toBe(6)
  })
})
