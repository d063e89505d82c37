/**
 * schema/openapi.json linted by Spectral with the `spectral:oas` ruleset (.spectral.yaml): no
 * error, and only the warnings docs/api.md justifies (scripts/api-doc.ts). Where Spectral cannot
 * start this is one named skip; under CI=true it is a failure.
 */
import { execFile, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { ACCEPTED_SPECTRAL_WARNINGS } from '../../scripts/api-doc.js'

const root = new URL('../..', import.meta.url).pathname
const SPECTRAL = `${root}node_modules/.bin/spectral`
const ENV = { ...process.env, NO_COLOR: '1', SCARF_ANALYTICS: 'false', DO_NOT_TRACK: '1' }
const SEVERITY = ['error', 'warning', 'information', 'hint'] as const

interface Finding {
  code: string
  message: string
  path: string[]
  severity: 0 | 1 | 2 | 3
}

const probe = spawnSync(SPECTRAL, ['--version'], { encoding: 'utf8', timeout: 120_000, env: ENV })
const startError = probe.status === 0 ? undefined : `Spectral cannot start (${SPECTRAL}): ${probe.error?.message ?? probe.stderr.trim().split('\n')[0]}`

/** Spectral's findings for one file, with the repository's ruleset. */
async function lint(file: string): Promise<Finding[]> {
  const args = ['lint', file, '--ruleset', `${root}.spectral.yaml`, '--format', 'json', '--quiet', '--fail-severity', 'error']
  const result = await promisify(execFile)(SPECTRAL, args, { cwd: root, timeout: 60_000, env: ENV, maxBuffer: 16 << 20 }).catch(
    (error: { stdout?: string; stderr?: string; code?: unknown }) => {
      // Exit 1 means findings at error level; anything else is Spectral failing to run.
      if (error.code !== 1 || !error.stdout) throw new Error(`spectral failed: ${error.stderr ?? String(error)}`)
      return error as { stdout: string }
    },
  )
  const text = result.stdout.trim()
  return text === '' || text.startsWith('No results') ? [] : (JSON.parse(text.slice(text.indexOf('['))) as Finding[])
}

const show = (f: Finding) => `${SEVERITY[f.severity]} ${f.code} at ${f.path.join('/')}: ${f.message}`

describe('the OpenAPI document under Spectral (spectral:oas)', () => {
  if (startError !== undefined) {
    if (process.env.CI === 'true') it('has Spectral in CI', () => expect.fail(`${startError}; CI must run it, not skip it`))
    else it.skip(`skipped: ${startError}`, () => {})
    return
  }

  it('reports no error, and only warnings docs/api.md justifies', async () => {
    const findings = await lint(`${root}schema/openapi.json`)
    expect(findings.filter((f) => f.severity === 0).map(show)).toEqual([])
    const docs = readFileSync(`${root}docs/api.md`, 'utf8')
    for (const f of findings.filter((f) => f.severity === 1)) {
      expect(Object.keys(ACCEPTED_SPECTRAL_WARNINGS), show(f)).toContain(f.code)
      expect(docs, `warning ${f.code} is not justified in docs/api.md`).toContain(`\`${f.code}\``)
    }
  }, 270_000)

  it('does find errors: a document with a broken reference and a duplicate operation id fails', async () => {
    const broken = JSON.parse(readFileSync(`${root}schema/openapi.json`, 'utf8'))
    broken.paths['/host/{ip}'].get.responses['200'].content['application/json'].schema = { $ref: '#/components/schemas/no-such-schema' }
    broken.paths['/domain/{domain}'].get.operationId = broken.paths['/host/{ip}'].get.operationId
    const dir = mkdtempSync(join(tmpdir(), 'l9kit-spectral-'))
    try {
      writeFileSync(join(dir, 'openapi.json'), JSON.stringify(broken))
      const codes = (await lint(join(dir, 'openapi.json'))).filter((f) => f.severity === 0).map((f) => f.code)
      expect(codes).toContain('operation-operationId-unique')
      expect(codes).toContain('invalid-ref')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 270_000)
})
