/**
 * What the CLI makes of every file under corpus/: `validate` (strict and lenient, JSON report)
 * and `normalize` (the bytes it writes, by SHA-256, and its messages). Recorded once in
 * behaviour.json (`npx tsx scripts/corpus-behaviour.ts`) and compared by behaviour.test.ts, so a
 * change made for speed is seen to change nothing the user gets.
 */
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { main } from '../../src/cli/program.js'
import { Readable, Writable } from 'node:stream'
import { ROOT } from './files.js'

/**
 * One command's outcome on one file: exit code, the SHA-256 and length of standard output and
 * of standard error, and (to read in a diff) the last line of the report. Digests keep the
 * recording small: the whole corpus's reports are over 1 MB.
 */
export interface Outcome {
  code: number
  stdoutSha256: string
  stdoutBytes: number
  stderrSha256: string
  stderrBytes: number
  /** The last line of standard output (validate: the counts) or of standard error (normalize). */
  last: string
}

export interface FileBehaviour {
  strict: Outcome
  lenient: Outcome
  normalize: Outcome
}

/** Every file under corpus/, as a path relative to the repository with `/`, sorted. */
export function corpusFiles(): string[] {
  const files: string[] = []
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else files.push(relative(ROOT, path).split('\\').join('/'))
    }
  }
  walk(join(ROOT, 'corpus'))
  return files.sort()
}

/** A stream that keeps the bytes written to it. */
class Bytes extends Writable {
  readonly parts: Buffer[] = []
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void) {
    this.parts.push(Buffer.from(chunk))
    done()
  }
}

interface Run {
  code: number
  stdout: Buffer
  stderr: Buffer
}

/** `l9kit ...argv` in-process (from source: one thread), `stdin` on standard input; stdout kept as bytes. */
async function run(argv: string[], stdin?: Buffer): Promise<Run> {
  const stdout = new Bytes()
  const stderr = new Bytes()
  const input = Readable.from(stdin === undefined ? [] : [stdin])
  const code = await main(argv, { stdin: input, stdout, stderr, stderrIsTTY: false, env: {} })
  return { code, stdout: Buffer.concat(stdout.parts), stderr: Buffer.concat(stderr.parts) }
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')
const lastLine = (bytes: Buffer) => bytes.toString('utf8').trimEnd().split('\n').at(-1) ?? ''

function outcome(run: Run, summary: 'stdout' | 'stderr'): Outcome {
  return {
    code: run.code,
    stdoutSha256: sha256(run.stdout),
    stdoutBytes: run.stdout.length,
    stderrSha256: sha256(run.stderr),
    stderrBytes: run.stderr.length,
    last: lastLine(run[summary]),
  }
}

/** What the commands make of one corpus file (path relative to the repository). */
export async function behaviourOf(file: string): Promise<FileBehaviour> {
  // Relative paths, so the messages that name the file are the same on every machine.
  const here = process.cwd()
  process.chdir(ROOT)
  try {
    const strict = await run(['validate', '--profile', 'strict', '--format', 'json', '--jobs', '1', file])
    const lenient = await run(['validate', '--profile', 'lenient', '--format', 'json', '--jobs', '1', file])
    const normalized = await run(['normalize', '--jobs', '1', file])
    return { strict: outcome(strict, 'stdout'), lenient: outcome(lenient, 'stdout'), normalize: outcome(normalized, 'stderr') }
  } finally {
    process.chdir(here)
  }
}

/**
 * The corpus as one JSON Lines input of over 4 MiB, so that `--jobs` takes it to worker threads
 * (and validate's canonical short cut sees canonical lines): every line of the JSON Lines files,
 * and each .json file on one line (its line ends made blanks), all repeated in order until the
 * input is large enough.
 */
export function corpusLines(): Buffer {
  const lines: string[] = []
  for (const file of corpusFiles()) {
    const text = readFileSync(join(ROOT, file), 'utf8')
    if (/\.(jsonl|ndjson)$/.test(file)) lines.push(...text.split(/\r?\n/).filter((line) => line.trim() !== ''))
    else if (file.endsWith('.json')) lines.push(text.replace(/\r?\n/g, ' ').trim())
  }
  // A damaged line that leaves a bracket open would make the reader take every line after it
  // as the rest of one document: such lines are left out.
  lines.splice(0, lines.length, ...lines.filter(closesItsBrackets))
  const once = Buffer.from(lines.join('\n') + '\n', 'utf8')
  const copies = Math.ceil((5 << 20) / once.length)
  return Buffer.concat(Array.from({ length: copies }, () => once))
}

/** True when every `{` and `[` of the line outside strings is closed within it. */
function closesItsBrackets(line: string): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < line.length; i++) {
    const c = line[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
    } else if (c === '"') inString = true
    else if (c === '{' || c === '[') depth++
    else if ((c === '}' || c === ']') && --depth < 0) return false
  }
  return depth === 0 && !inString
}

/** The commands behaviourOf runs, on standard input (for corpusLines). */
export const STDIN_COMMANDS: Record<keyof FileBehaviour, string[]> = {
  strict: ['validate', '--profile', 'strict', '--format', 'json', '-'],
  lenient: ['validate', '--profile', 'lenient', '--format', 'json', '-'],
  normalize: ['normalize', '-'],
}

/** What the commands make of corpusLines() in-process (one thread, as `--jobs 1`). */
export async function linesBehaviour(): Promise<FileBehaviour> {
  const input = corpusLines()
  const strict = await run([...STDIN_COMMANDS.strict, '--jobs', '1'], input)
  const lenient = await run([...STDIN_COMMANDS.lenient, '--jobs', '1'], input)
  const normalized = await run([...STDIN_COMMANDS.normalize, '--jobs', '1'], input)
  return { strict: outcome(strict, 'stdout'), lenient: outcome(lenient, 'stdout'), normalize: outcome(normalized, 'stderr') }
}

export { outcome }

/** The recording: each file's behaviour, and that of all of them as one large input. */
export interface Recording {
  files: Record<string, FileBehaviour>
  lines: FileBehaviour
}

export const BEHAVIOUR_FILE = join(ROOT, 'test', 'corpus', 'behaviour.json')
