/** The JUnit and JSON reports: well-formed XML a JUnit reader accepts, JSON valid by its own schema. */
import { Ajv2020 } from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'
import type { CheckResult } from '../../src/conformance/check.js'
import { escapeXml, type SuiteReport, toJsonReport, toJUnit } from '../../src/conformance/index.js'
import { schemaDocument } from '../../src/schema/index.js'
import { childrenNamed, parseXml } from './junit-tree.js'

const result = (id: string, status: CheckResult['status'], extra: Partial<CheckResult> = {}): CheckResult => ({
  id,
  description: `${id} description`,
  spec: 'Endpoints',
  status,
  seed: -17,
  requests: 3,
  durationMs: 12,
  ...extra,
})

const HOSTILE = 'body \u0000\u0007 <html> & "quotes" \ud800 lone surrogate \uffff ]]> 😀'

export const sampleReport = (): SuiteReport => ({
  baseUrl: 'http://127.0.0.1:8080',
  seed: -17,
  maxExamples: 10,
  rate: '1/s',
  startedAt: '2024-05-06T07:08:09.123Z',
  durationMs: 4321,
  requests: 57,
  notes: ['wrote 16 test events tagged l9kit-conform:c1; deleted 16 with DELETE /admin/events?tag=l9kit-conform:c1'],
  results: [
    result('lookup-shape', 'passed', { message: '12 lookup answers' }),
    result('content-type-json', 'failed', {
      message: `a 400 answer has content-type text/html ${HOSTILE}`,
      example: { input: '["/host/"," "]', request: 'GET /host/%20 (api-key)', response: `400 Bad Request\ncontent-type: text/html\n\n${HOSTILE}` },
      path: '0:1:0',
      replay: 'l9kit conform --base-url http://127.0.0.1:8080 --checks content-type-json --seed -17',
    }),
    result('hook-delivery', 'skipped', { message: 'needs --pro-key and --hook-receiver' }),
    result('rate-limit-wait', 'error', { message: 'GET /host/198.18.0.1: no answer within 15000 ms', replay: 'l9kit conform --checks rate-limit-wait --seed -17' }),
  ],
  summary: { passed: 1, failed: 1, skipped: 1, errors: 1 },
})

/** Ajv on the schema document `npm run generate` publishes as schema/conform-report.schema.json. */
export function reportValidator() {
  return new Ajv2020({ strict: true, allErrors: true }).compile(schemaDocument('conform-report'))
}

describe('JUnit report', () => {
  it('is XML a strict parser accepts, in the JUnit structure, control characters and all', () => {
    const root = parseXml(toJUnit(sampleReport()))
    expect(root.name).toBe('testsuites')
    expect(root.attributes).toMatchObject({ tests: '4', failures: '1', errors: '1', skipped: '1' })
    const [suite, ...more] = childrenNamed(root, 'testsuite')
    expect(more).toEqual([])
    expect(suite!.attributes).toMatchObject({ tests: '4', failures: '1', errors: '1', skipped: '1', time: '4.321', timestamp: '2024-05-06T07:08:09' })
    const properties = childrenNamed(childrenNamed(suite!, 'properties')[0]!, 'property').map((p) => [p.attributes.name, p.attributes.value])
    expect(properties).toContainEqual(['seed', '-17'])
    const cases = childrenNamed(suite!, 'testcase')
    expect(cases.map((c) => c.attributes.name)).toEqual(['lookup-shape', 'content-type-json', 'hook-delivery', 'rate-limit-wait'])
    expect(cases.every((c) => c.attributes.classname === 'l9kit.conform' && /^\d+\.\d{3}$/.test(c.attributes.time!))).toBe(true)
    expect(cases[0]!.children).toEqual([])
    const failure = childrenNamed(cases[1]!, 'failure')[0]!
    expect(failure.attributes.message).toContain('<html> & "quotes"')
    expect(failure.attributes.type).toBe('content-type-json')
    expect(failure.text).toContain('smallest failing input: ["/host/"," "]')
    expect(failure.text).toContain('replay: l9kit conform')
    expect(failure.text).toContain('😀')
    expect(childrenNamed(cases[2]!, 'skipped')[0]!.attributes.message).toBe('needs --pro-key and --hook-receiver')
    expect(childrenNamed(cases[3]!, 'error')).toHaveLength(1)
  })

  it('escapes markup and replaces characters XML cannot carry', () => {
    expect(escapeXml('a<b>&"c"')).toBe('a&lt;b&gt;&amp;&quot;c&quot;')
    expect(escapeXml('\u0000x\ud800y\uffff')).toBe('\ufffdx\ufffdy\ufffd')
    expect(escapeXml('\t\n\r😀')).toBe('\t\n\r😀')
  })
})

describe('JSON report', () => {
  it('validates against its own schema', () => {
    const check = reportValidator()
    const json = JSON.parse(JSON.stringify(toJsonReport(sampleReport())))
    expect(check(json), JSON.stringify(check.errors)).toBe(true)
    expect(json.checks[1]).toMatchObject({ id: 'content-type-json', status: 'failed', example: { input: '["/host/"," "]' }, path: '0:1:0' })
  })

  it('the schema refuses what is not a report', () => {
    const check = reportValidator()
    const json = toJsonReport(sampleReport()) as unknown as Record<string, unknown>
    expect(check({ ...json, checks: [{ id: 'Bad Id!' }] })).toBe(false)
    expect(check({ ...json, extra: 1 })).toBe(false)
    expect(check({ ...json, rate: 'fast' })).toBe(false)
  })
})
