/**
 * The published schemas checked by a second, independent validator: Debian's python3-jsonschema
 * (run by /usr/bin/python3, not whatever python is on PATH) must accept both schemas as draft
 * 2020-12 and give the same verdicts as our ajv validators on every corpus document.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { schemaDocument } from '../../src/schema/index.js'
import { validate } from '../../src/validate/index.js'
import { corpusPath, documentNames, INVALID_DIR, readJson, ROOT, VALID_DIR } from './files.js'

const PYTHON = '/usr/bin/python3'
const SCRIPT = join(ROOT, 'scripts', 'crosscheck.py')
const MISSING = `${PYTHON} cannot import jsonschema (install Debian's python3-jsonschema: apt-get install python3-jsonschema)`

const available = spawnSync(PYTHON, ['-c', 'import jsonschema'], { encoding: 'utf8' }).status === 0
const inCi = process.env.CI === 'true'

interface Verdict {
  file: string
  strict: boolean
  lenient: boolean
}

const documents = [
  ...documentNames(VALID_DIR).map((name) => ({ dir: VALID_DIR, name })),
  ...documentNames(INVALID_DIR).map((name) => ({ dir: INVALID_DIR, name })),
].map((d) => ({ ...d, path: corpusPath(d.dir, d.name) }))
const byPath = new Map(documents.map((d) => [d.path, d]))
const invalidPaths = documents.filter((d) => d.dir === INVALID_DIR).map((d) => d.path)

if (!available) {
  describe('cross-check with python-jsonschema (unavailable)', () => {
    if (inCi) {
      it('has the second validator in CI', () => {
        throw new Error(`${MISSING}; CI must run the cross-check, not skip it`)
      })
    } else {
      it.skip(`skipped: ${MISSING}`, () => {})
    }
  })
}

// Registered only when python can run it, so a missing package shows as one named skip (or, in CI, one failure).
if (available) describe('cross-check with python-jsonschema', () => {
  const python = new Map<string, Verdict>()
  let run: ReturnType<typeof spawnSync>

  beforeAll(() => {
    run = spawnSync(PYTHON, [SCRIPT], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 })
    for (const line of String(run.stdout).split('\n')) {
      if (line.trim() === '') continue
      const verdict = JSON.parse(line) as Verdict
      python.set(verdict.file, verdict)
    }
  })

  it('checks the schema files that src/schema generates', () => {
    for (const [name, file] of [['event', 'event.schema.json'], ['event.lenient', 'event.lenient.schema.json']] as const) {
      const committed = JSON.parse(readFileSync(join(ROOT, 'schema', file), 'utf8'))
      expect(committed, `schema/${file} is stale: run npm run generate`).toEqual(schemaDocument(name))
    }
  })

  it('finds both schemas valid draft 2020-12 and reads every corpus document', () => {
    expect(run.status, `crosscheck.py failed: ${String(run.stderr)}`).toBe(0)
    expect([...python.keys()].sort()).toEqual(documents.map((d) => d.path).sort())
  })

  it.each([...byPath.keys()])('%s: same verdicts as ajv in both profiles', (path) => {
    const { dir, name } = byPath.get(path)!
    const doc = readJson(dir, name)
    const ours = {
      file: path,
      strict: validate(doc, { profile: 'strict' }).ok,
      lenient: validate(doc, { profile: 'lenient' }).ok,
    }
    expect(python.get(path)).toEqual(ours)
  })

  it.each(invalidPaths)('%s fails strict in python too', (path) => {
    expect(python.get(path)?.strict).toBe(false)
  })
})
