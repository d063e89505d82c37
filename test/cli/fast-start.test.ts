/**
 * The stream commands' one-file builds with their V8 code caches (dist/fast/, src/cli/fast/,
 * docs/speed.md "Start-up"): a build writes a cache per command that the node which made it
 * accepts; each command answers byte for byte the same from its one-file build as from the ES
 * modules (L9KIT_FAST=0); a damaged, foreign or missing cache, or no dist/fast at all, changes
 * nothing but speed (a damaged cache, unchecked, aborts V8: see cached-script.ts).
 */
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { basename, isAbsolute, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { commands } from '../../src/cli/commands/index.js'
import { CACHE_SUFFIX, FAST_COMMANDS } from '../../src/cli/fast/commands.js'
import { exampleAggregation } from '../../src/schema/index.js'
import { BUILT_CLI } from '../support/built-cli.js'
import { fileTempDir } from '../support/temp.js'

const DIST = join(BUILT_CLI, '..', '..')
const ROOT = join(DIST, '..')
const dir = fileTempDir('l9kit-fast-start-')

const valid = join(ROOT, 'corpus', 'valid', 'service-https-nginx-ipv4.json')
const invalid = join(ROOT, 'corpus', 'invalid', 'bad-base64-raw-plain-text.json')
const aggregation = join(dir, 'aggregation.json')
const lines = join(dir, 'lines.jsonl')
const httpx = join(dir, 'one.httpx.jsonl')
writeFileSync(aggregation, `${JSON.stringify(exampleAggregation())}\n`)
writeFileSync(lines, `${JSON.stringify(JSON.parse(readFileSync(valid, 'utf8')))}\n{"port":\n${JSON.stringify(JSON.parse(readFileSync(invalid, 'utf8')))}\n`)
writeFileSync(httpx, '{"timestamp":"2024-09-23T12:03:07+02:00","port":"443","url":"https://a.example.com","host":"a.example.com","host_ip":"192.0.2.1","scheme":"https","status_code":200}\nnot json\n')

/** Runs `cli` (a built dist/cli/main.cjs, the bin, or main.js) with `args`, started from its one-file build or not. */
function run(args: string[], fast: boolean, cli = BUILT_CLI) {
  const result = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', env: { ...process.env, L9KIT_FAST: fast ? '1' : '0' } })
  return { status: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr }
}

const RUNS: string[][] = [
  ['validate', valid],
  ['validate', invalid],
  ['validate', lines],
  ['validate', '--profile', 'lenient', lines],
  ['validate', '--document', 'aggregation', aggregation],
  ['validate', '--max-errors', '1', lines],
  ['validate', '--no-such-option', valid],
  ['validate', join(dir, 'missing.json')],
  ['validate', '--help'],
  ['normalize', lines],
  ['fingerprint', lines],
  ['filter', 'port:443', lines],
  ['filter', 'host:~.*example.*', lines],
  ['filter', 'port:', lines],
  ['convert', '--from', 'httpx', httpx],
]

describe('one-file stream commands with a V8 code cache (built CLI)', () => {
  it('the build wrote each command and its cache, and this node accepts every cache', () => {
    for (const name of FAST_COMMANDS) expect(existsSync(join(DIST, 'fast', `${name}.cjs${CACHE_SUFFIX}`)), name).toBe(true)
    const check = spawnSync(process.execPath, [join(DIST, 'fast', 'code-cache.cjs'), '--check'], { encoding: 'utf8' })
    expect(check.stderr).toBe('')
    expect(check.status).toBe(0)
    expect(check.stdout).toMatch(/^\d+ scripts, each cache accepted\n$/)
  })

  it('every command built this way takes --max-errors (entry.ts relies on it)', async () => {
    for (const name of FAST_COMMANDS) {
      const command = await commands.find((c) => c.name === name)!.load()
      expect(command.common, name).toContain('max-errors')
    }
  })

  // Named by file names, not temp paths: the same test names on every run.
  it.each(RUNS.map((args) => [args.map((a) => (isAbsolute(a) ? basename(a) : a)).join(' '), args] as const))('%s: the same answer from the one-file build as from the ES modules', (_name, args) => {
    const fast = run(args, true)
    expect(fast.signal).toBe(null)
    expect(fast).toEqual(run(args, false))
  })

  // The package's bin (main.cjs, CommonJS) and the ES modules' entry (main.js) run the same way.
  it.each([['validate', valid], ['validate', lines], ['--help'], ['version'], ['no-such-command']])('%s: the bin (main.cjs) answers as dist/cli/main.js does', (...args: string[]) => {
    const bin = run(args, true)
    expect(bin.stdout + bin.stderr).not.toBe('')
    expect(bin).toEqual(run(args, true, join(DIST, 'cli', 'main.js')))
  })

  describe('a copy of the build whose caches are damaged, foreign or gone', () => {
    const copy = join(dir, 'dist')
    cpSync(DIST, copy, { recursive: true })
    const cli = join(copy, 'cli', 'main.cjs')
    const caches = [join(copy, 'fast', `validate.cjs${CACHE_SUFFIX}`), join(copy, 'fast', 'validators', `event.cjs${CACHE_SUFFIX}`)]
    const intact = caches.map((file) => readFileSync(file))
    const expected = [['validate', valid], ['validate', lines]].map((args) => ({ args, answer: run(args, false) }))

    /** Writes each cache as `change` makes it, then checks the answers. */
    const answersWith = (change: (cache: Buffer, i: number) => Buffer | undefined) => {
      caches.forEach((file, i) => {
        const changed = change(Buffer.from(intact[i]!), i)
        if (changed === undefined) rmSync(file, { force: true })
        else writeFileSync(file, changed)
      })
      for (const { args, answer } of expected) expect(run(args, true, cli), args.join(' ')).toEqual(answer)
    }

    it('damaged in the middle of its code: rejected, the same answer', () => {
      answersWith((cache) => {
        for (let i = 0; i < 64; i++) cache[(cache.length >> 1) + i]! ^= 0x5a
        return cache
      })
    })

    it('damaged near its end: rejected, the same answer', () => {
      answersWith((cache) => {
        for (let i = 0; i < 64; i++) cache[cache.length - 100 + i]! ^= 0xff
        return cache
      })
    })

    it("made by another V8 (its header's version differs): rejected, the same answer", () => {
      answersWith((cache) => {
        cache.writeUInt32LE(cache.readUInt32LE(4) ^ 0x1234, 4)
        return cache
      })
    })

    it("another script's cache: rejected, the same answer", () => {
      const other = readFileSync(join(copy, 'fast', `normalize.cjs${CACHE_SUFFIX}`))
      answersWith(() => other)
    })

    it('truncated, or empty: rejected, the same answer', () => {
      answersWith((cache, i) => (i === 0 ? cache.subarray(0, cache.length >> 1) : Buffer.alloc(0)))
    })

    it('no cache: compiled from the source, the same answer', () => {
      answersWith(() => undefined)
    })

    it('no dist/fast at all: the ES modules, the same answer', () => {
      rmSync(join(copy, 'fast'), { recursive: true, force: true })
      for (const { args, answer } of expected) expect(run(args, true, cli), args.join(' ')).toEqual(answer)
    })
  })
})
