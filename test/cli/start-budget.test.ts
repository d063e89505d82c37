/**
 * Start-up budget (issue 39): the stream commands, run by the built CLI on one small input,
 * load only what they use. A loader hook (test/support/load-trace.mjs) lists every module the
 * process loads; each command may load the libraries of its allowed list only, at most its
 * budget of JavaScript bytes (ours and the libraries'), and no worker or zlib machinery for
 * a small plain input. What a process loads does not depend on the machine's speed, so these
 * limits hold anywhere; a change that puts TypeBox (or any heavy module) on a command's path
 * fails here. Each command is run both ways the CLI starts it: from its one-file build with its
 * code cache (dist/fast/, the default when built) and from the ES modules (L9KIT_FAST=0).
 */
import { spawnSync } from 'node:child_process'
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { emptyEvent, exampleAggregation } from '../../src/schema/index.js'
import { BUILT_CLI } from '../support/built-cli.js'
import { fileTempDir } from '../support/temp.js'

const HOOK = join(import.meta.dirname, '..', 'support', 'load-trace.mjs')
const NATIVES_HOOK = join(import.meta.dirname, '..', 'support', 'natives-trace.cjs')
const dir = fileTempDir('l9kit-start-budget-')

/** Libraries no stream command may load, named so that a failure says which one came in. */
const HEAVY = ['typebox', 'fast-check', 'ws', 'postgres', 'eta', 'saxes', 're2js', 'ajv', 'ajv-formats']

interface Loaded {
  /** Packages under node_modules, by name. */
  libraries: Set<string>
  /** Built-in modules (`node:zlib`, …). */
  builtins: Set<string>
  /** Bytes of the JavaScript files loaded (ours and the libraries'). */
  bytes: number
  files: string[]
}

/** How the CLI starts a stream command: from dist/fast/ (its default) or from the ES modules. */
type Way = 'one file' | 'ES modules'
const WAYS: Way[] = ['one file', 'ES modules']

/** Runs the built CLI with the load hook, the command started `way`; what it loaded. */
function load(args: string[], way: Way = 'one file'): Loaded {
  const trace = join(dir, `trace-${way.replace(' ', '-')}-${args.join('-').replace(/[^\w.-]/g, '_')}.txt`)
  writeFileSync(trace, '')
  const env = { ...process.env, L9KIT_LOAD_TRACE: trace, L9KIT_FAST: way === 'one file' ? '1' : '0' }
  const run = spawnSync(process.execPath, ['--import', HOOK, BUILT_CLI, ...args], { encoding: 'utf8', env })
  expect(run.status, `${args.join(' ')}: ${run.stderr}`).toBe(0)
  const loaded: Loaded = { libraries: new Set(), builtins: new Set(), bytes: 0, files: [] }
  for (const line of new Set(readFileSync(trace, 'utf8').split('\n').filter(Boolean))) {
    const [kind, where] = [line.slice(0, 3), line.slice(4)]
    if (where.startsWith('node:')) {
      loaded.builtins.add(where)
      continue
    }
    const path = kind === 'esm' ? fileURLToPath(where) : where
    loaded.files.push(path)
    loaded.bytes += statSync(path).size
    const library = /[\\/]node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(path)?.[1]
    if (library) loaded.libraries.add(library)
  }
  return loaded
}

/**
 * node's own modules (public and internal: `internal/fs/streams`, …) that the built CLI loads
 * for `args`, started from its one-file build (test/support/natives-trace.cjs).
 */
function natives(args: string[]): Set<string> {
  const trace = join(dir, `natives-${args.join('-').replace(/[^\w.-]/g, '_')}.txt`)
  const env = { ...process.env, L9KIT_NATIVES_TRACE: trace, L9KIT_FAST: '1' }
  // Standard input /dev/null, as a benchmark runs it: process.stdin, once made, is a file stream.
  const run = spawnSync(process.execPath, ['--require', NATIVES_HOOK, BUILT_CLI, ...args], { encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'pipe'] })
  expect(run.status, `${args.join(' ')}: ${run.stderr}`).toBe(0)
  return new Set(readFileSync(trace, 'utf8').split('\n').filter(Boolean))
}

const KB = 1024

const one = join(dir, 'one.json')
const httpx = join(dir, 'one.httpx.jsonl')
const aggregation = join(dir, 'aggregation.json')
writeFileSync(aggregation, `${JSON.stringify(exampleAggregation())}\n`)
writeFileSync(one, `${JSON.stringify({ ...emptyEvent(), port: '80', host: 'www.example.com' })}\n`)
writeFileSync(httpx, '{"timestamp":"2024-09-23T12:03:07+02:00","port":"443","url":"https://a.example.com","host":"a.example.com","host_ip":"192.0.2.1","scheme":"https","status_code":200}\n')

const cases: { name: string; args: () => string[]; libraries?: string[]; budget: number }[] = [
  { name: 'validate (strict)', args: () => ['validate', one], budget: 600 * KB },
  { name: 'validate --profile lenient', args: () => ['validate', '--profile', 'lenient', one], budget: 600 * KB },
  { name: 'validate --document aggregation', args: () => ['validate', '--document', 'aggregation', aggregation], budget: 600 * KB },
  { name: 'normalize', args: () => ['normalize', one], budget: 400 * KB },
  { name: 'fingerprint', args: () => ['fingerprint', one], budget: 400 * KB },
  { name: 'convert --from httpx', args: () => ['convert', '--from', 'httpx', httpx], budget: 600 * KB },
  { name: 'filter', args: () => ['filter', 'port:80', one], budget: 500 * KB },
  // A pattern is the one thing that needs re2js.
  { name: 'filter with a pattern', args: () => ['filter', 'host:~.*example.*', one], libraries: ['re2js'], budget: 800 * KB },
]

describe('start-up budget of the stream commands (built CLI, one small input)', () => {
  it.each(WAYS.flatMap((way) => cases.map((c) => ({ ...c, way }))))('$name ($way) loads only its allowed libraries, within its byte budget', ({ args, libraries = [], budget, way }) => {
    const loaded = load(args(), way)
    // The way asked for is the way taken (a one-file build is read whole: it is what is counted).
    const oneFile = join('dist', 'fast', `${args()[0]}.cjs`)
    expect(loaded.files.some((f) => f.endsWith(oneFile)), `${oneFile} loaded`).toBe(way === 'one file')
    const outside = [...loaded.libraries].filter((l) => !libraries.includes(l))
    expect(outside, 'libraries outside the allowed list').toEqual([])
    expect(HEAVY.filter((l) => loaded.libraries.has(l) && !libraries.includes(l)), 'heavy libraries').toEqual([])
    expect(loaded.bytes, `JavaScript loaded (${loaded.files.length} files)`).toBeLessThanOrEqual(budget)
    // A small plain input starts no worker and decompresses nothing.
    expect([...loaded.builtins].filter((b) => b === 'node:zlib' || b === 'node:worker_threads')).toEqual([])
  })

  // node's own modules count too: a short run from the one-file build reads a small file whole
  // (jsonl/input.ts), makes process.stdin only when it reads it (start.ts), and loads
  // node:fs/promises only for an output file: node's file streams, its promise-based fs and the
  // readline it brings cost a run of one record more than validating it (docs/speed.md).
  it.each(cases)('$name (one file) loads none of node\'s file streams, fs/promises or readline', ({ args }) => {
    const loaded = natives(args())
    expect(loaded.has('fs'), 'the trace lists node\'s modules').toBe(true)
    expect(['internal/fs/streams', 'internal/fs/promises', 'fs/promises', 'internal/readline/interface', 'readline'].filter((m) => loaded.has(m))).toEqual([])
  })

  it.each(WAYS)('validate loads one profile of the event validator: the lenient one is not on the strict path (%s)', (way) => {
    const strict = load(['validate', one], way)
    const lenient = load(['validate', '--profile', 'lenient', one], way)
    const only = (a: Loaded, b: Loaded) => a.files.filter((f) => !b.files.includes(f))
    // Each profile's own validator module is loaded by that profile only.
    expect(only(strict, lenient).length).toBeGreaterThan(0)
    expect(only(lenient, strict).length).toBeGreaterThan(0)
  })

  it('sees what a command loads (the trace is not empty, and counts the libraries of a regex query)', () => {
    const loaded = load(['filter', 'host:~.*example.*', one])
    expect(loaded.files.some((f) => f.endsWith(join('cli', 'main.cjs')))).toBe(true)
    expect(loaded.libraries.has('re2js')).toBe(true)
  })
})
