/**
 * The Python module schema/types/python/l9kit_types.py, run by Debian's /usr/bin/python3. First
 * docs/languages.md's Python steps, followed in a new folder (follow-doc.ts): the program they
 * make gives the same JSON values back. Then: every
 * corpus/valid document and 1 000 generated canonical events decode with `from_dict` and come
 * back from `to_dict` as the same JSON value (every member kept, unknown ones too); and
 * `re.search`, as python-jsonschema applies `pattern`, gives ECMA-262's verdict on every schema
 * pattern and corpus string once the printable-ASCII guard is applied (and, without the guard,
 * differs on a trailing newline: the reason for the guard).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { exampleAggregation } from '../../src/schema/index.js'
import { fileTempDir, testTempDir } from '../support/temp.js'
import { followSection } from './follow-doc.js'
import {
  canonicalLines,
  CONFORM_REPORT,
  ERROR_BODY,
  engineMatrix,
  LANGUAGES,
  needs,
  ROOT,
  roundTripper,
  sameValueTests,
  validDocuments,
  works,
} from './support.js'

const PYTHON = '/usr/bin/python3'
const SCRIPT = join(LANGUAGES, 'python', 'roundtrip.py')

const roundTrip = roundTripper(() => PYTHON, [SCRIPT])

needs('Python types (schema/types/python)', works(PYTHON, ['--version']), `${PYTHON} (Debian python3)`, () => {
  const work = fileTempDir('l9kit-python-types-')

  it('docs/languages.md, followed step by step in a new folder, makes a program that gives the same values', async () => {
    const start = testTempDir('l9kit-python-doc-')
    const canonical = await canonicalLines(validDocuments().map((d) => d.doc), work)
    mkdirSync(join(start, 'myapp'))
    writeFileSync(join(start, 'myapp', 'events.jsonl'), canonical.join('\n') + '\n')
    // python3 as the doc says it, Debian's; no bytecode left behind.
    const env = { ...process.env, PATH: `/usr/bin:${process.env.PATH}`, PYTHONDONTWRITEBYTECODE: '1', L9KIT: ROOT }
    const folder = await followSection('Python', { start, env })
    const again = readFileSync(join(folder, 'again.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l))
    expect(again).toEqual(canonical.map((l) => JSON.parse(l)))
  })

  sameValueTests(roundTrip, work)

  it('an error body and a conformance report: the same values back; fingerprint null is refused', async () => {
    expect(await roundTrip('error', [JSON.stringify(ERROR_BODY)])).toEqual([ERROR_BODY])
    expect(await roundTrip('report', [JSON.stringify(CONFORM_REPORT)])).toEqual([CONFORM_REPORT])
    const doc = validDocuments()[0]!.doc as any
    const withNull = { ...doc, service: { ...doc.service, software: { ...doc.service.software, fingerprint: null } } }
    expect(await roundTrip('event', [JSON.stringify(withNull)])).toEqual([expect.stringMatching(/^error: \/service\/software\/fingerprint: /)])
  })

  it('keeps members the schema does not list, and an absent optional member stays absent', async () => {
    const [doc] = validDocuments().filter((d) => d.name === 'service-software-fingerprint-omitted.json').map((d) => d.doc as any)
    expect(doc.service.software).not.toHaveProperty('fingerprint')
    const extended = { ...doc, vendor_extension: { a: [1, null] }, http: { ...doc.http, x_http: true } }
    expect(await roundTrip('event', [JSON.stringify(extended)])).toEqual([extended])
  })

  it('a lookup result and a subdomain list: the same JSON value back', async () => {
    const [event] = validDocuments().map((d) => d.doc)
    const lookup = { Services: [event], Leaks: null }
    const subdomains = [{ subdomain: 'www.example.com', distinct_ips: 4294967296, last_seen: '2026-01-02T03:04:05.123Z' }]
    expect(await roundTrip('lookup', [JSON.stringify(lookup)])).toEqual([lookup])
    expect(await roundTrip('subdomains', [JSON.stringify(subdomains)])).toEqual([subdomains])
  })

  it('an aggregation (one line of the bulk export): the same JSON value back', async () => {
    const aggregation = exampleAggregation()
    expect(await roundTrip('aggregation', [JSON.stringify(aggregation)])).toEqual([aggregation])
  })

  it('refuses what the types cannot hold, naming the member', async () => {
    const doc = validDocuments()[0]!.doc as any
    const bad = [{ ...doc, port: 443 }, { ...doc, service: { ...doc.service, credentials: { ...doc.service.credentials, raw: 'not base64!' } } }, { ...doc, ssl: undefined }]
    expect(await roundTrip('event', bad.map((d) => JSON.stringify(d)))).toEqual([
      'error: /port: expected a string, found int',
      expect.stringMatching(/^error: \/service\/credentials\/raw: expected base64 text/),
      'error: /ssl: member is missing',
    ])
  })

  it("re.search (python-jsonschema's `pattern`) agrees with ECMA-262 on every schema pattern and corpus string", async () => {
    const { rawDifferences } = await engineMatrix(PYTHON, [SCRIPT, 'patterns'])
    // Without the guard, `$` lets a final newline through: what the guard is for.
    expect(rawDifferences).toContain('"443\\n"')
  })

  it('leaves no bytecode beside the generated module', () => {
    expect(existsSync(join(LANGUAGES, '..', '..', 'schema', 'types', 'python', '__pycache__'))).toBe(false)
  })
})
