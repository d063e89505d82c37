/**
 * The Go package schema/types/go. First docs/languages.md's Go steps, followed in a new module
 * (follow-doc.ts): the program they build gives canonical documents back byte for byte. Then a
 * test program, compiled with the standard library only (no network): every
 * corpus/valid document, made canonical by `l9kit normalize` at run time, decodes into
 * `l9types.Event` and encodes back to the same bytes; so do 1 000 generated canonical events; and
 * Go's `regexp` gives the verdict ECMA-262 gives for every schema pattern on every corpus string.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, expect, it } from 'vitest'
import { fileTempDir, testTempDir } from '../support/temp.js'
import { followSection } from './follow-doc.js'
import {
  canonicalLines,
  carriesEveryProtocolObject,
  CONFORM_REPORT,
  ERROR_BODY,
  engineMatrix,
  generatedEvents,
  goEscapes,
  LANGUAGES,
  needs,
  PROPERTY_RUNS,
  protocolEvents,
  ROOT,
  run,
  validDocuments,
  works,
} from './support.js'

const version = spawnSync('go', ['env', 'GOVERSION'], { encoding: 'utf8' })
const available = version.status === 0
// Go 1.22 started writing backspace and form feed as \b and \f; before, as \u0008 and \u000c.
const minor = Number(/^go1\.(\d+)/.exec(String(version.stdout).trim())?.[1] ?? 99)

needs('Go types (schema/types/go)', available && works('go', ['version']), 'the go command (Debian golang-go)', () => {
  const work = fileTempDir('l9kit-go-types-')
  const binary = join(work, 'roundtrip')
  // Offline: no proxy, caches in the temp folder; the test module replaces l9types by the repo's copy.
  const env = { ...process.env, GOFLAGS: '-mod=mod', GOPROXY: 'off', GOCACHE: join(work, 'cache'), GOPATH: join(work, 'gopath'), GOTOOLCHAIN: 'local' }
  beforeAll(async () => {
    const built = await run('go', ['build', '-o', binary, '.'], { cwd: join(LANGUAGES, 'go'), env, timeout: 300_000 })
    expect(built.stderr).toBe('')
    expect(built.code).toBe(0)
    const vet = await run('go', ['vet', './...'], { cwd: join(LANGUAGES, 'go'), env, timeout: 300_000 })
    expect(vet.code, vet.stderr).toBe(0)
  }, 300_000)

  it('docs/languages.md, followed step by step in a new module, builds a program that gives the same bytes', async () => {
    const start = testTempDir('l9kit-go-doc-')
    // Documents Go writes byte for byte as l9kit does (no U+2028/U+2029, \b or \f to escape otherwise).
    const canonical = (await canonicalLines(validDocuments().map((d) => d.doc), work)).filter((line) => goEscapes(line, minor < 22) === line)
    expect(canonical.length).toBeGreaterThan(20)
    mkdirSync(join(start, 'myapp'))
    writeFileSync(join(start, 'myapp', 'events.jsonl'), canonical.join('\n') + '\n')
    const folder = await followSection('Go', { start, env: { ...env, L9KIT: ROOT } })
    expect(readFileSync(join(folder, 'again.jsonl'), 'utf8')).toBe(canonical.join('\n') + '\n')
  }, 300_000)

  it('builds without writing into the repository (no go.sum, no binary)', () => {
    expect(readdirSync(join(LANGUAGES, 'go')).sort()).toEqual(['go.mod', 'main.go'])
  })

  it('the generated package is gofmt-clean', async () => {
    const result = await run('gofmt', ['-l', 'schema/types/go'])
    expect(result.code).toBe(0)
    expect(result.stdout).toBe('')
  })

  const sameBytes = async (canonical: string[], kind = 'event') => {
    const result = await run(binary, [kind], { input: canonical.join('\n') + '\n' })
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const lines = result.stdout.split('\n').slice(0, -1)
    expect(lines).toHaveLength(canonical.length)
    return lines.map((line, i) => ({ got: line, want: goEscapes(canonical[i]!, minor < 22) })).filter((p) => p.got !== p.want)
  }

  it('every corpus/valid document: decode and encode gives the canonical bytes', async () => {
    const docs = validDocuments()
    const canonical = await canonicalLines(docs.map((d) => d.doc), work)
    const different = await sameBytes(canonical)
    expect(different).toEqual([])
    expect(docs.length).toBeGreaterThanOrEqual(30)
  }, 360_000)

  it(`${PROPERTY_RUNS} generated canonical events: the same bytes`, async () => {
    const canonical = await canonicalLines(generatedEvents(), work)
    expect(await sameBytes(canonical)).toEqual([])
  }, 360_000)

  it('documents with protocol objects: the same bytes, absent members stay absent', async () => {
    const docs = [...validDocuments().map((d) => d.doc).filter(carriesEveryProtocolObject), ...protocolEvents()]
    expect(docs.length).toBeGreaterThan(300) // the corpus holds a document with every object
    const canonical = await canonicalLines(docs, work)
    expect(await sameBytes(canonical)).toEqual([])
  }, 360_000)

  it('documents with protocol objects: `normalize --escape go` is what Go’s default (HTML-safe) encoder writes', async () => {
    const docs = [...validDocuments().map((d) => d.doc), ...protocolEvents()]
    const escaped = await canonicalLines(docs, work, ['--escape', 'go'])
    const result = await run(binary, ['event-escaped'], { input: escaped.join('\n') + '\n' })
    expect(result.stderr).toBe('')
    // Go 1.22 and later write backspace and form feed as \b and \f; `--escape go` writes them as Go before 1.22.
    const want = minor < 22 ? escaped : escaped.map((line) => line.replace(/\\u0008|\\u000c|\\./g, (m) => ({ '\\u0008': '\\b', '\\u000c': '\\f' })[m] ?? m))
    expect(result.stdout.split('\n').slice(0, -1).filter((line, i) => line !== want[i])).toEqual([])
    // Not vacuous: the escapes occur inside protocol objects.
    expect(escaped.some((line) => /"(?:vnc|ftp|smtp|telnet|redis|mysql|postgresql|mongodb|memcached|amqp|ldap|sip|rdp|dns|rtsp)":\{[^{}]*\\u00(?:3c|3e|26)/.test(line))).toBe(true)
  }, 360_000)

  it('a lookup result and a subdomain list: the same bytes', async () => {
    const [event] = await canonicalLines([validDocuments()[0]!.doc], work)
    const lookup = `{"Services":[${event}],"Leaks":null}`
    const subdomains = '[{"subdomain":"www.example.com","distinct_ips":4294967296,"last_seen":"2026-01-02T03:04:05.123Z"}]'
    expect(await sameBytes([lookup], 'lookup')).toEqual([])
    expect(await sameBytes([subdomains], 'subdomains')).toEqual([])
  })

  it('an error body and a conformance report: the same bytes (absent optional members stay absent)', async () => {
    expect(await sameBytes([JSON.stringify(ERROR_BODY)], 'error')).toEqual([])
    expect(await sameBytes([JSON.stringify(CONFORM_REPORT)], 'report')).toEqual([])
  })

  it('refuses what the types cannot hold, saying where', async () => {
    const result = await run(binary, ['event'], { input: '{"port":443}\n{"http":{"length":"1"}}\n' })
    expect(result.stdout).toMatch(/^error: .*Event\.port of type string\nerror: .*length of type int64\n$/)
  })

  it("Go's regexp agrees with ECMA-262 on every schema pattern and every corpus string", async () => {
    const { rows, ecma } = await engineMatrix(binary, ['patterns'])
    // Without the guard too: Go's `$` is the end of the text, as in ECMA-262.
    expect(rows).toEqual(ecma)
  })
})
