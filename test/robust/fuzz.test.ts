/**
 * Fuzz suite (issue 14): byte-level mutations of the valid inputs of every input format (the
 * golden inputs under corpus/tools/ and corpus/valid), fed to every command that reads records
 * through the CLI's own entry point (main(), in-process), and to the ingest path of
 * `POST /admin/events` and `serve --load`. For every mutation:
 * - the exit status is 0 or 1 (2 is for usage and I/O errors, and there are none here);
 * - nothing prints a stack trace or an internal error;
 * - every record the mutation did not touch comes out unchanged and in order: the output of the
 *   original input without the touched lines is a subsequence of the mutated input's output
 *   (line formats), or the output of the hosts wholly before the mutation is a prefix of it
 *   (nmap XML, one document).
 * Fixed seed; FUZZ_RUNS overrides the number of cases per format (default 2 000).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Io } from '../../src/cli/command.js'
import { main } from '../../src/cli/program.js'
import { ingestText, MemoryStore } from '../../src/service/index.js'
import { REPO_ROOT, TOOLS_CORPUS } from '../support/golden.js'
import { Capture } from '../support/streams.js'
import { type Mutated, mutation } from './mutations.js'

const SEED = 20_261_123
const RUNS = Number(process.env.FUZZ_RUNS ?? 2000)
const RUN_START = '2024-01-02T03:04:05Z'

interface Input {
  name: string
  bytes: Buffer
  /** How untouched records are recognised: per line, by the hosts before the mutation, or not at all. */
  records: 'lines' | 'xml-hosts' | 'none'
}

interface Format {
  name: string
  inputs: Input[]
  /** Lines whose change may change later records (run headers): touching one skips the record property. */
  context?: RegExp
}

const VALID = join(REPO_ROOT, 'corpus', 'valid')
const GROUP = 6
/** corpus/valid as JSON Lines, in groups of GROUP documents (small inputs keep 2 000 cases fast). */
const validLines = readdirSync(VALID)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.stringify(JSON.parse(readFileSync(join(VALID, f), 'utf8'))) + '\n')
const l9Inputs: Input[] = Array.from({ length: Math.ceil(validLines.length / GROUP) }, (_, g) => ({
  name: `corpus/valid documents ${g * GROUP + 1}-${Math.min(validLines.length, (g + 1) * GROUP)} as JSON Lines`,
  bytes: Buffer.from(validLines.slice(g * GROUP, (g + 1) * GROUP).join('')),
  records: 'lines' as const,
}))

function toolInputs(format: string): Input[] {
  const dir = join(TOOLS_CORPUS, format)
  return readdirSync(dir)
    .filter((f) => !f.includes('.expected.') && !f.endsWith('.problems.txt'))
    .sort()
    .map((f) => {
      const bytes = readFileSync(join(dir, f))
      // A pretty-printed JSON array (nuclei's -json-export) counts as lines too: an element is
      // untouched when none of its lines is, and a broken one costs only itself (jsonl/values.ts).
      // One object over many lines (a Shodan host look-up, a Censys API answer) is one record.
      const oneObject = bytes.toString('latin1').trimStart().startsWith('{\n')
      return { name: `corpus/tools/${format}/${f}`, bytes, records: format === 'nmap-xml' ? 'xml-hosts' : oneObject ? 'none' : 'lines' } satisfies Input
    })
}

const CONTEXT: Record<string, RegExp> = {
  'masscan-console': /Starting masscan/,
  'nmap-grep': /^\s*#/,
  'masscan-list': /^\s*#/,
  // ZMap's header row names the fields of every later row.
  zmap: /^[a-z0-9_,]*saddr/,
}

const FORMATS: Format[] = [
  { name: 'l9', inputs: l9Inputs },
  ...readdirSync(TOOLS_CORPUS)
    .sort()
    .map((name) => ({ name, inputs: toolInputs(name), context: CONTEXT[name] })),
]

interface Run {
  code: number
  stdout: string
  stderr: string
}

/**
 * `l9kit ...argv -` with `bytes` on standard input, through the CLI's entry point; `ingest`
 * is the path `POST /admin/events` and `serve --load` share (ingestStream, via ingestText),
 * its "output" the canonical JSON of each stored event, in order.
 */
async function run(argv: string[], bytes: Buffer): Promise<Run> {
  if (argv[0] === 'ingest') {
    const store = new MemoryStore()
    const stored: string[] = []
    store.onIngest(({ json }) => stored.push(json))
    const report = await ingestText(store, bytes)
    return { code: report.rejected.length > 0 ? 1 : 0, stdout: stored.map((j) => j + '\n').join(''), stderr: JSON.stringify(report.rejected) }
  }
  const stdout = new Capture()
  const stderr = new Capture()
  const io: Io = { stdin: Readable.from(bytes.length === 0 ? [] : [bytes]), stdout, stderr, stderrIsTTY: false, env: {} }
  const code = await main([...argv, '-'], io)
  return { code, stdout: stdout.text, stderr: stderr.text }
}

/** The commands a format is fed to, and whether their standard output is one line per record. */
function commandsFor(format: string): { argv: string[]; perRecord: boolean }[] {
  const convert = { argv: ['convert', '--from', format, '--run-start', RUN_START], perRecord: true }
  const l9 = format === 'l9'
  return [
    convert,
    { argv: ['normalize'], perRecord: l9 },
    { argv: ['fingerprint'], perRecord: l9 },
    { argv: ['validate', '--profile', 'lenient'], perRecord: false },
    { argv: ['ingest'], perRecord: l9 },
  ]
}

/** Line spans [start, end] (end: the newline's offset, or the last byte) of the input. */
function lineSpans(bytes: Buffer): [number, number][] {
  const spans: [number, number][] = []
  let start = 0
  while (start < bytes.length) {
    const nl = bytes.indexOf(0x0a, start)
    const end = nl === -1 ? bytes.length - 1 : nl
    spans.push([start, end])
    start = end + 1
  }
  return spans
}

/**
 * Record spans: one per line, or for a pretty-printed JSON array one per element (the lines
 * from one that opens an element at the first element's indentation up to the next), its
 * `[` and `]` lines being context.
 */
function recordSpans(bytes: Buffer): { start: number; end: number; context: boolean }[] {
  const spans = lineSpans(bytes)
  const text = (s: [number, number]) => bytes.toString('latin1', s[0], s[1] + 1).replace(/\r?\n$/, '')
  if (spans.length < 3 || text(spans[0]!).trim() !== '[') return spans.map(([start, end]) => ({ start, end, context: false }))
  const indent = /^[ \t]*/.exec(text(spans[1]!))![0]
  const out: { start: number; end: number; context: boolean }[] = [{ start: spans[0]![0], end: spans[0]![1], context: true }]
  for (const span of spans.slice(1)) {
    const line = text(span)
    const last = out.at(-1)!
    if (line.trim() === ']' || (line.startsWith(indent) && /^[{[]/.test(line.slice(indent.length))) || last.context) out.push({ start: span[0], end: span[1], context: line.trim() === ']' })
    else last.end = span[1]
  }
  return out
}

/**
 * The original without the records the mutation touched, or undefined when it touched a
 * context line. Conservative: a record next to the touched bytes counts as touched.
 */
function untouchedOnly(input: Buffer, m: Mutated, context: RegExp | undefined): Buffer | undefined {
  const kept: Buffer[] = []
  for (const span of recordSpans(input)) {
    const record = input.subarray(span.start, span.end + 1)
    const touched = m.from <= span.end + 1 && m.to >= span.start - 1
    if (!touched) kept.push(record)
    else if (span.context || context?.test(record.toString('latin1'))) return undefined
  }
  return Buffer.concat(kept)
}

/** The original up to the end of the last `</host>` wholly before the mutation. */
function hostsBefore(input: Buffer, m: Mutated): Buffer {
  // (a negative offset would count from the end)
  const end = m.from < '</host>'.length ? -1 : input.lastIndexOf('</host>', m.from - '</host>'.length)
  return end === -1 ? Buffer.alloc(0) : input.subarray(0, end + '</host>'.length)
}

const lines = (text: string) => text.split('\n').filter((l) => l !== '')

/** True when every line of `sub` appears in `full`, in the same order. */
function isSubsequence(sub: string[], full: string[]): boolean {
  let i = 0
  for (const line of full) if (i < sub.length && line === sub[i]) i++
  return i === sub.length
}

const STACK = /\n\s+at |internal error/

describe('fuzz: mutated inputs of every format, through every command', () => {
  for (const format of FORMATS) {
    it(`${format.name}: ${RUNS} mutations`, { timeout: 600_000 }, async () => {
      const commands = commandsFor(format.name)
      const cases = fc.integer({ min: 0, max: format.inputs.length - 1 }).chain((i) =>
        fc.record({
          input: fc.constant(format.inputs[i]!).map((input) => Object.assign(input, { [fc.toStringMethod]: () => input.name })),
          mutated: mutation(format.inputs[i]!.bytes),
          command: fc.constantFrom(...commands),
        }),
      )
      await fc.assert(
        fc.asyncProperty(cases, async ({ input, mutated, command }) => {
          const got = await run(command.argv, mutated.bytes)
          const where = `${command.argv.join(' ')} < ${input.name} (${mutated.label})`
          expect([0, 1], `${where}: exit ${got.code}\n${got.stderr.slice(0, 2000)}`).toContain(got.code)
          expect(got.stderr + got.stdout, where).not.toMatch(STACK)
          if (!command.perRecord || input.records === 'none') return
          if (input.records === 'xml-hosts') {
            const before = await run(command.argv, hostsBefore(input.bytes, mutated))
            expect(got.stdout.startsWith(before.stdout), `${where}: the hosts before the mutation changed`).toBe(true)
            return
          }
          const rest = untouchedOnly(input.bytes, mutated, format.context)
          if (rest === undefined) return
          const expected = await run(command.argv, rest)
          expect(isSubsequence(lines(expected.stdout), lines(got.stdout)), `${where}: an untouched record is missing or changed`).toBe(true)
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      )
    })
  }
})
