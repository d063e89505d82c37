/**
 * Shared by the tests of the Go, Python, Rust and Java sides (test/languages/*.test.ts): the
 * canonical documents they round-trip (made by `l9kit normalize` at run time), the generated
 * events of the property tests, and the pattern matrix every regular expression engine answers.
 */
import { execFile, spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { strictEvent } from '../../src/conformance/arbitraries.js'
import { DOCUMENT_NAMES, NOT_PRINTABLE, PROTOCOL_NAMES, schemaDocument, SSH_EXTENSION } from '../../src/schema/index.js'
import { documentNames, INVALID_DIR, ROOT, VALID_DIR } from '../corpus/files.js'

export const inCi = process.env.CI === 'true'
export const LANGUAGES = join(ROOT, 'test', 'languages')

export interface Run {
  code: number
  stdout: string
  stderr: string
}

/** Runs a program to its end, feeding `input` on standard input. */
export function run(file: string, args: string[], options: { input?: string; cwd?: string; env?: NodeJS.ProcessEnv; timeout?: number } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      file,
      args,
      { cwd: options.cwd ?? ROOT, env: options.env ?? process.env, timeout: options.timeout ?? 120_000, maxBuffer: 256 << 20 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    )
    // A program that does not read its input (gofmt, go build) may have closed it already: EPIPE is not a failure here.
    child.stdin!.on('error', () => undefined)
    child.stdin!.end(options.input ?? '')
  })
}

export const works = (file: string, args: string[]) => spawnSync(file, args, { encoding: 'utf8' }).status === 0

/** Registers the tests when `available`; otherwise one named skip, or one failure under CI (unless `optional`). */
export function needs(what: string, available: boolean, missing: string, body: () => void, optional = false): void {
  if (available) return void describe(what, body)
  describe(`${what} (unavailable)`, () => {
    if (inCi && !optional) it(`needs ${missing} in CI`, () => expect.fail(`${missing}; CI must run this test, not skip it`))
    else it.skip(`skipped: ${missing}`, () => {})
  })
}

/**
 * Header maps sorted byte-wise by name, as Go's encoder writes every map. `l9kit normalize` keeps
 * the input's order unless told otherwise, so the documents are given to it sorted.
 */
function sortHeaders(doc: any): any {
  const header = doc?.http?.header
  if (header && typeof header === 'object') {
    const sorted: Record<string, unknown> = {}
    for (const name of Object.keys(header).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))) {
      Object.defineProperty(sorted, name, { value: header[name], enumerable: true, writable: true, configurable: true })
    }
    doc.http.header = sorted
  }
  return doc
}

/** `l9kit normalize [options]` over JSON Lines, with header maps sorted: one canonical line per input. */
export async function canonicalLines(docs: unknown[], dir: string, options: string[] = []): Promise<string[]> {
  const file = join(dir, 'input.jsonl')
  writeFileSync(file, docs.map((d) => JSON.stringify(sortHeaders(structuredClone(d)))).join('\n') + '\n')
  const result = await run(process.execPath, [join(ROOT, 'dist', 'cli', 'main.js'), 'normalize', '--jobs', '1', ...options, file])
  expect(result.stderr, 'l9kit normalize').toBe('')
  expect(result.code).toBe(0)
  const lines = result.stdout.split('\n').slice(0, -1)
  expect(lines).toHaveLength(docs.length)
  return lines
}

/** Every corpus/valid document, parsed. */
export const validDocuments = () => documentNames(VALID_DIR).map((name) => ({ name, doc: JSON.parse(readFileSync(join(VALID_DIR, name), 'utf8')) as unknown }))

/** 1 000 generated canonical events (a fixed seed, so a failure can be replayed). */
export const PROPERTY_RUNS = 1_000
export const generatedEvents = () => fc.sample(strictEvent(), { numRuns: PROPERTY_RUNS, seed: 20_2026 })
/** 300 generated canonical events that each carry protocol objects (and often the `ssh` extension). */
export const protocolEvents = () => fc.sample(strictEvent({ protocols: 'always' }), { numRuns: 300, seed: 32_2026 })

/**
 * The escapes Go's encoding/json adds that SetEscapeHTML(false) does not turn off: U+2028 and
 * U+2029 always, and (before Go 1.22) backspace and form feed as `\u0008` / `\u000c`.
 */
export function goEscapes(canonical: string, goBefore122: boolean): string {
  return canonical.replace(/\\u[0-9a-fA-F]{4}|\\.|[\u2028\u2029]/g, (m) => {
    if (m === '\u2028') return '\\u2028'
    if (m === '\u2029') return '\\u2029'
    if (goBefore122 && m === '\\b') return '\\u0008'
    if (goBefore122 && m === '\\f') return '\\u000c'
    return m
  })
}

/** The patterns of the published documents, each once (the guard beside them included). */
export function schemaPatterns(): string[] {
  const found = new Set<string>()
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk)
    if (typeof node !== 'object' || node === null) return
    const pattern = (node as { pattern?: unknown }).pattern
    if (typeof pattern === 'string') found.add(pattern)
    Object.values(node).forEach(walk)
  }
  for (const name of DOCUMENT_NAMES) walk(schemaDocument(name))
  return [...found].sort()
}

/** Line ends and look-alikes each engine might treat apart, around values the patterns accept. */
const EDGES = ['443\n', '443\r', '443\r\n', '443\u0085', '443\u2028', '443\u2029', '\n443', '443 ', '٣', '\u00a0', 'a'.repeat(64) + '\n']

/**
 * Every string that occurs in a corpus document (valid and invalid: values and member names),
 * plus EDGES: the rows of the matrix every engine fills in.
 */
export function corpusStrings(): string[] {
  const found = new Set<string>(EDGES)
  const walk = (node: unknown): void => {
    if (typeof node === 'string') found.add(node)
    else if (Array.isArray(node)) node.forEach(walk)
    else if (typeof node === 'object' && node !== null) for (const [k, v] of Object.entries(node)) found.add(k), walk(v)
  }
  for (const dir of [VALID_DIR, INVALID_DIR]) for (const name of documentNames(dir)) walk(JSON.parse(readFileSync(join(dir, name), 'utf8')))
  return [...found].sort()
}

const hex = (text: string) => Buffer.from(text, 'utf8').toString('hex')

/**
 * The input every engine's matcher reads: the number of patterns, the patterns, then the
 * strings, one per line as hex of UTF-8 (so no engine needs a JSON parser or escapes).
 */
export const matrixInput = (patterns: string[], strings: string[]) => [String(patterns.length), ...patterns.map(hex), ...strings.map(hex)].join('\n') + '\n'

/** ECMA-262 with the `u` flag, as ajv compiles patterns: per pattern a row of `1` (matches) and `0`. */
export function ecmaRows(patterns: string[], strings: string[]): string[] {
  return patterns.map((p) => {
    const re = new RegExp(p, 'u')
    return strings.map((s) => (re.test(s) ? '1' : '0')).join('')
  })
}

/** The verdicts a validator gives: a string passes a pattern when it matches and the guard (NOT_PRINTABLE's row) does not. */
export function verdicts(patterns: string[], rows: string[]): string[] {
  const guard = rows[patterns.indexOf(NOT_PRINTABLE)]!
  return rows.map((row, i) => (patterns[i] === NOT_PRINTABLE ? row : [...row].map((bit, j) => (bit === '1' && guard[j] === '0' ? '1' : '0')).join('')))
}

/** The strings one engine judged differently from ECMA-262, for a readable failure. */
export function disagreements(patterns: string[], strings: string[], expected: string[], got: string[], limit = 20): string[] {
  const out: string[] = []
  patterns.forEach((p, i) => {
    for (let j = 0; j < strings.length; j++) {
      if (expected[i]?.[j] !== got[i]?.[j]) out.push(`${JSON.stringify(strings[j])} against ${p.slice(0, 40)}: ECMA ${expected[i]?.[j]}, engine ${got[i]?.[j]}`)
    }
  })
  return out.slice(0, limit)
}

export { documentNames, INVALID_DIR, NOT_PRINTABLE, ROOT, VALID_DIR }

/** An error body, as every answer but a 200 carries it. */
export const ERROR_BODY = { title: 'Bad Request', description: 'Invalid IP address "192.0.2.x": expected IPv4 or IPv6.' }

/**
 * A conformance report with every member, optional ones on one check and not on the other, in
 * the schema's member order (so Go's bytes can be compared). test/languages checks it against
 * schema/conform-report.schema.json.
 */
export const CONFORM_REPORT = {
  tool: 'l9kit conform',
  base_url: 'http://127.0.0.1:8080',
  seed: -2147483648,
  max_examples: 10,
  rate: '0.5/s',
  started_at: '2026-01-02T03:04:05.123Z',
  duration_ms: 51234,
  requests: 57,
  summary: { passed: 1, failed: 1, skipped: 0, errors: 0 },
  checks: [
    { id: 'host-lookup-shape', description: 'A host lookup answers a lookup result.', spec: 'Lookups', status: 'passed', seed: -2147483648, requests: 3, duration_ms: 812 },
    {
      id: 'rate-limit-429',
      description: 'A burst without a key meets a 429 with x-limited-for.',
      spec: 'Rate limits',
      status: 'failed',
      message: 'no 429 after 10 requests',
      example: { input: '"192.0.2.1"', request: 'GET /host/192.0.2.1 (no api-key)', response: 'HTTP/1.1 200 OK' },
      seed: -2147483648,
      path: '0:1',
      replay: 'l9kit conform --base-url http://127.0.0.1:8080 --checks rate-limit-429 --seed -2147483648',
      requests: 10,
      duration_ms: 2045,
    },
  ],
}

/** `kind, lines → values`: a language's round-trip program run over JSON lines, each line parsed back (or its `error: …` text). */
export type RoundTrip = (kind: string, lines: string[]) => Promise<unknown[]>

/** The round trip of a program invoked as `file ...args KIND`, one JSON line out per line in. */
export function roundTripper(file: () => string, args: string[] = []): RoundTrip {
  return async (kind, lines) => {
    const result = await run(file(), [...args, kind], { input: lines.join('\n') + '\n' })
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const out = result.stdout.split('\n').slice(0, -1)
    expect(out).toHaveLength(lines.length)
    return out.map((line) => (line.startsWith('error: ') ? line : JSON.parse(line)))
  }
}

/** The two value tests Python and Rust share: corpus/valid (as given and normalised), then the generated events. */
export function sameValueTests(roundTrip: RoundTrip, work: string): void {
  it('every corpus/valid document, as given and as normalised: the same JSON value back', async () => {
    const docs = validDocuments()
    expect(await roundTrip('event', docs.map((d) => JSON.stringify(d.doc)))).toEqual(docs.map((d) => d.doc))
    const canonical = await canonicalLines(docs.map((d) => d.doc), work)
    expect(await roundTrip('event', canonical)).toEqual(canonical.map((line) => JSON.parse(line)))
  })

  it(`${PROPERTY_RUNS} generated canonical events: the same JSON value back`, async () => {
    const canonical = await canonicalLines(generatedEvents(), work)
    expect(await roundTrip('event', canonical)).toEqual(canonical.map((line) => JSON.parse(line)))
  }, 180_000)

  it('documents with protocol objects (one with every object and member, generated subsets): the same JSON value back', async () => {
    const docs = [...validDocuments().map((d) => d.doc).filter(carriesEveryProtocolObject), ...protocolEvents()]
    expect(docs.length).toBeGreaterThan(300) // the corpus holds a document with every object
    const canonical = await canonicalLines(docs, work)
    expect(await roundTrip('event', canonical)).toEqual(canonical.map((line) => JSON.parse(line)))
  }, 180_000)
}

/** Whether a document carries every protocol object and every member that extends `ssh` (the corpus must hold one). */
export function carriesEveryProtocolObject(doc: unknown): boolean {
  const event = doc as Record<string, any>
  return PROTOCOL_NAMES.every((name) => typeof event[name] === 'object') && Object.keys(SSH_EXTENSION).every((name) => name in (event.ssh ?? {}))
}

/**
 * One engine's answer to the pattern matrix (`file ...args` reads matrixInput on stdin and prints
 * a row per pattern), with ECMA-262's rows beside it. Checks that the guarded verdicts agree.
 */
export async function engineMatrix(file: string, args: string[]): Promise<{ rows: string[]; ecma: string[]; rawDifferences: string }> {
  const patterns = schemaPatterns()
  const strings = corpusStrings()
  const result = await run(file, args, { input: matrixInput(patterns, strings) })
  expect(result.stderr).toBe('')
  expect(result.code).toBe(0)
  const rows = result.stdout.trim().split('\n')
  const ecma = ecmaRows(patterns, strings)
  expect(disagreements(patterns, strings, verdicts(patterns, ecma), verdicts(patterns, rows))).toEqual([])
  return { rows, ecma, rawDifferences: disagreements(patterns, strings, ecma, rows, Infinity).join('\n') }
}
