/**
 * Golden tests for converters, shared by every format: each input under corpus/tools/<dir>/
 * (`<case>.<ext>`) is converted and compared with `<case>.expected.jsonl` (the events, one
 * compact JSON document per line) and `<case>.problems.txt` (one `where: reason` line per
 * Problem; absent when there are none). Every expected document must validate strict.
 *
 * `UPDATE_GOLDEN=1 npx vitest run test/convert/<format>` rewrites the expected files from the
 * current output; review the diff before keeping it.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { ConvertContext, Converter, Problem } from '../../src/convert/types.js'
import { isProblem } from '../../src/convert/types.js'
import { serializeEvent } from '../../src/normalize/index.js'
import type { Event } from '../../src/schema/index.js'
import { validate } from '../../src/validate/index.js'

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const TOOLS_CORPUS = join(REPO_ROOT, 'corpus', 'tools')

/** The fixed context golden tests run with, so outputs are reproducible. */
export const GOLDEN_CONTEXT: ConvertContext = { runStart: '2024-01-02T03:04:05Z', fingerprint: 1, maxLineBytes: 64 * 1024 * 1024 }

export interface Converted {
  events: Event[]
  problems: Problem[]
}

/** Runs a converter over an in-memory input (given as one or more chunks) and collects its output. */
export async function convertText(converter: Converter, input: string | (string | Uint8Array)[], ctx: Partial<ConvertContext> = {}): Promise<Converted> {
  const parts = typeof input === 'string' ? [input] : input
  return collect(converter.convert(chunks(...parts), { ...GOLDEN_CONTEXT, ...ctx }))
}

/** Runs a converter over a file, read in small chunks so chunk boundaries are exercised too. */
export async function convertFile(converter: Converter, path: string, ctx: Partial<ConvertContext> = {}): Promise<Converted> {
  const bytes = readFileSync(path)
  const parts: Uint8Array[] = []
  for (let i = 0; i < bytes.length; i += 997) parts.push(bytes.subarray(i, i + 997))
  return collect(converter.convert(chunks(...parts), { ...GOLDEN_CONTEXT, ...ctx }))
}

/** Byte chunks of the given parts (kept here so this helper does not load the CLI). */
async function* chunks(...parts: (string | Uint8Array)[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield typeof part === 'string' ? Buffer.from(part, 'utf8') : part
}

async function collect(items: AsyncIterable<Event | Problem>): Promise<Converted> {
  const out: Converted = { events: [], problems: [] }
  for await (const item of items) {
    if (isProblem(item)) out.problems.push(item)
    else out.events.push(item)
  }
  return out
}

/** `where: reason`, the line format of `<case>.problems.txt`. */
export const problemText = (p: Problem) => `${p.where}: ${p.reason}`

export interface GoldenCase {
  name: string
  input: string
  expected: string
  problems: string
}

/** The cases of one corpus directory: every file ending in one of `ext` (without the dot). */
export function goldenCases(dir: string, ext: string | string[]): GoldenCase[] {
  const root = join(TOOLS_CORPUS, dir)
  if (!existsSync(root)) return []
  const exts = (Array.isArray(ext) ? ext : [ext]).map((e) => `.${e}`)
  return readdirSync(root)
    .filter((f) => !f.endsWith('.expected.jsonl') && !f.endsWith('.problems.txt'))
    .flatMap((f) => {
      const e = exts.find((x) => f.endsWith(x))
      if (!e) return []
      const name = f.slice(0, -e.length)
      return [{ name, input: join(root, f), expected: join(root, `${name}.expected.jsonl`), problems: join(root, `${name}.problems.txt`) }]
    })
    .sort((a, b) => a.name.localeCompare(b.name))
}

export interface GoldenOptions {
  /** Directory under corpus/tools/ (usually the tool's name). */
  dir: string
  /** Input file extension(s) this converter reads, without the dot (`jsonl`, `xml`, `txt`). */
  ext: string | string[]
  /** At least this many cases must exist (the issue asks for typical, edge and damaged). */
  minCases?: number
  ctx?: Partial<ConvertContext>
}

const readLinesOf = (path: string) =>
  existsSync(path)
    ? readFileSync(path, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
    : []

/** Registers one vitest `describe` with a test per case (and one that checks the case count). */
export function goldenSuite(converter: Converter, opts: GoldenOptions): void {
  const cases = goldenCases(opts.dir, opts.ext)
  const update = process.env.UPDATE_GOLDEN === '1'
  describe(`golden ${converter.name} (corpus/tools/${opts.dir})`, () => {
    it(`has at least ${opts.minCases ?? 3} cases`, () => {
      expect(cases.length).toBeGreaterThanOrEqual(opts.minCases ?? 3)
    })
    for (const c of cases) {
      it(c.name, async () => {
        const { events, problems } = await convertFile(converter, c.input, opts.ctx)
        const got = events.map(serializeEvent)
        const gotProblems = problems.map(problemText)
        if (update) {
          writeFileSync(c.expected, got.length ? `${got.join('\n')}\n` : '')
          if (gotProblems.length) writeFileSync(c.problems, `${gotProblems.join('\n')}\n`)
          else rmSync(c.problems, { force: true })
        }
        const expected = readLinesOf(c.expected).map((l) => JSON.parse(l) as unknown)
        for (const [i, doc] of expected.entries()) {
          const report = validate(doc, { profile: 'strict' })
          expect(report.errors, `${c.expected}:${i + 1} must validate strict`).toEqual([])
        }
        expect(events).toEqual(expected)
        expect(got, 'member order and spelling, byte for byte').toEqual(readLinesOf(c.expected))
        expect(gotProblems).toEqual(readLinesOf(c.problems))
      })
    }
  })
}
