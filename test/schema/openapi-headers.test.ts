/**
 * The `x-limited-for` pattern of schema/openapi.json: ASCII only and read alike by ECMAScript and
 * Python's `re` (as python-jsonschema uses it), accepting every value the reference service writes.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseDurationHeader } from '../../src/client/index.js'
import { formatMillis } from '../../src/service/ratelimit/index.js'

const root = new URL('../..', import.meta.url).pathname
const api = JSON.parse(readFileSync(`${root}schema/openapi.json`, 'utf8'))
const header = api.components.headers['x-limited-for']
const pattern: string = header.schema.pattern
const matches = (text: string) => new RegExp(pattern, 'u').test(text)

const ACCEPTED = ['734ms', '0s', '1.2s', '1m2.5s', '1h0m0s', '250us', '17ns', '344.24ms']
// Non-ASCII digits (Arabic-Indic, full-width), the micro signs, Go's parse-only forms, padding.
const REJECTED = ['', '734', '1.5', '\u0663ms', '\uff17ms', '500\u00b5s', '500\u03bcs', '1.s', '.5s', '-1s', ' 734ms', '734ms ', '734 ms', '1d']

describe('the x-limited-for pattern', () => {
  it('is printable ASCII without \\d, \\w or \\s, and names the micro sign only in its description', () => {
    expect(pattern).toMatch(/^[\x20-\x7e]+$/)
    expect(pattern).not.toMatch(/\\[dDwWsS]/)
    expect(header.description).toContain('\u00b5s')
  })

  it('accepts every wait the reference service writes, and only Go durations the client reads', () => {
    fc.assert(
      fc.property(fc.nat({ max: 400_000_000 }), (ms) => {
        expect(matches(formatMillis(ms)), formatMillis(ms)).toBe(true)
      }),
    )
    for (const text of ACCEPTED) {
      expect(matches(text), text).toBe(true)
      expect(parseDurationHeader(text).ok, text).toBe(true)
    }
    for (const text of REJECTED) expect(matches(text), JSON.stringify(text)).toBe(false)
  })

  it('gives the same verdicts in Python re.search (python-jsonschema) as in ECMAScript', () => {
    const samples = [...ACCEPTED, ...REJECTED, ...fc.sample(fc.stringMatching(new RegExp(pattern)), { numRuns: 50, seed: 7 })]
    const script = 'import json, re, sys\np, xs = json.load(sys.stdin)\nprint(json.dumps([re.search(p, x) is not None for x in xs]))'
    const run = spawnSync('/usr/bin/python3', ['-c', script], { input: JSON.stringify([pattern, samples]), encoding: 'utf8', timeout: 120_000 })
    expect(run.status, run.stderr).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual(samples.map(matches))
  })
})
