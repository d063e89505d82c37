/**
 * Runs a Markdown file's code blocks as a reader would (markdown.ts says how each is marked),
 * in order, in one folder per file, so a block can use what an earlier one wrote:
 *
 * - sh: bash, one command at a time (a line ending in `\` goes on); each must exit 0, or the
 *   status its comment ends with (`# … exit 1`); `cmd &` runs in the background and is stopped
 *   when the block ends. Placeholders get working values: `8080` (the service's port in the
 *   docs) is the runner's service, `9000` (the hook receiver's) a free port, and the
 *   environment holds `$KEY`, `$PRO`, `$ADMIN` and `$WHSEC`.
 * - ts, js: a module in a project where `l9kit` is installed (a link to the package), run
 *   with tsx; the same placeholders.
 * - json: must parse; with `config`, `l9kit serve --config` must start with it.
 * - An `output` block is compared with what the block before it (or its command) printed,
 *   standard output and error together: a line `…` stands for any lines, `…` within a line
 *   for any text.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { DocBlock } from './markdown.js'

export interface DocContext {
  /** The repository (its docs are checked; `run by` paths are relative to it). */
  root: string
  /** The folder the doc's commands run in (links to the repository's files, as in a clone). */
  cwd: string
  /** A project folder whose node_modules holds l9kit, for ts and js blocks. */
  project: string
  /** The environment: PATH with `l9kit` on it, and the placeholders' values. */
  env: NodeJS.ProcessEnv
  /** The service's port, put where the docs write 8080. */
  port: number
  /** A free port, put where the docs write 9000. */
  listenPort: number
  /** Longest a block may run (ms). */
  timeoutMs?: number
}

export interface BlockResult {
  block: DocBlock
  status: 'passed' | 'failed' | 'skipped'
  /** Why it failed, or why it was skipped. */
  message?: string
}

const SHELL = new Set(['sh', 'bash', 'shell', 'console'])
const SCRIPT = new Set(['ts', 'typescript', 'js', 'javascript'])

/** The docs' placeholders replaced by working values. */
export const fill = (text: string, ctx: DocContext) => text.replace(/\b8080\b/g, String(ctx.port)).replace(/\b9000\b/g, String(ctx.listenPort))

interface Ran {
  code: number | null
  output: string
  timedOut: boolean
}

function runProcess(file: string, args: string[], ctx: DocContext, cwd: string): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { cwd, env: ctx.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    let output = ''
    child.stdout.on('data', (b: Buffer) => (output += b.toString()))
    child.stderr.on('data', (b: Buffer) => (output += b.toString()))
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      kill(child.pid)
    }, ctx.timeoutMs ?? 60_000)
    child.on('close', (code) => {
      clearTimeout(timer)
      kill(child.pid) // anything the block left running in its process group
      resolve({ code, output, timedOut })
    })
  })
}

function kill(pid: number | undefined): void {
  try {
    if (pid !== undefined) process.kill(-pid, 'SIGKILL')
  } catch {
    // gone already
  }
}

/** A sh block as a bash script that checks each command's exit status. */
export function shellScript(text: string, firstLine: number): string {
  const out = ['set -o pipefail', "trap 'kill $(jobs -p) 2>/dev/null' EXIT"]
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const start = i
    let command = lines[i]!
    while (command.endsWith('\\') && i + 1 < lines.length) command += `\n${lines[++i]}`
    const bare = command.trim()
    if (bare === '' || bare.startsWith('#')) continue
    out.push(command)
    if (/&\s*(#.*)?$/.test(bare) && !/&&\s*(#.*)?$/.test(bare)) continue // in the background
    const expected = Number(/#.*\bexit (\d+)\s*$/.exec(command.split('\n').at(-1)!)?.[1] ?? 0)
    const at = firstLine + 1 + start
    out.push(`__s=$?; if [ "$__s" -ne ${expected} ]; then echo "doc-test: the command on line ${at} exited $__s, not ${expected}" >&2; exit 97; fi`)
  }
  return `${out.join('\n')}\n`
}

/** Whether `actual` output matches the documented `expected` (… for any lines or text). */
export function outputMatches(expected: string, actual: string): boolean {
  const want = expected.trimEnd().split('\n').map((l) => l.trimEnd())
  const got = actual.trimEnd().split('\n').map((l) => l.trimEnd())
  const lineMatches = (pattern: string, line: string) =>
    pattern.includes('…') ? new RegExp(`^${pattern.split('…').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 's').test(line) : pattern === line
  const memo = new Map<string, boolean>()
  const match = (w: number, g: number): boolean => {
    const key = `${w},${g}`
    const known = memo.get(key)
    if (known !== undefined) return known
    let result: boolean
    if (w === want.length) result = g === got.length
    else if (want[w] === '…') result = match(w + 1, g) || (g < got.length && match(w, g + 1))
    else result = g < got.length && lineMatches(want[w]!, got[g]!) && match(w + 1, g + 1)
    memo.set(key, result)
    return result
  }
  return match(0, 0)
}

let scripts = 0

/** Runs one block; `previous` is the output of the last block that ran (for `output`). */
async function runBlock(block: DocBlock, ctx: DocContext, previous: Ran | undefined): Promise<{ result: BlockResult; ran?: Ran }> {
  const marker = block.marker
  const failed = (message: string) => ({ result: { block, status: 'failed' as const, message } })
  if (marker?.kind === 'invalid') return failed(marker.problem)
  if (marker?.kind === 'skip') return { result: { block, status: 'skipped', message: marker.reason } }
  if (marker?.kind === 'run-by') {
    const path = join(ctx.root, marker.path)
    if (!existsSync(path)) return failed(`'run by ${marker.path}': no such file`)
    if (!readFileSync(path, 'utf8').includes(basename(block.file))) return failed(`'run by ${marker.path}': that file does not read ${basename(block.file)}`)
    return { result: { block, status: 'passed', message: `run by ${marker.path}` } }
  }
  if (marker?.kind === 'file') {
    mkdirSync(dirname(join(ctx.cwd, marker.name)), { recursive: true })
    writeFileSync(join(ctx.cwd, marker.name), fill(block.text, ctx))
    return { result: { block, status: 'passed' } }
  }
  if (marker?.kind === 'output') {
    let ran = previous
    if (marker.command !== undefined) {
      const m = /^(.*?)\s*\(exit (\d+)\)$/s.exec(marker.command)
      const command = m ? m[1]! : marker.command
      ran = await runProcess('bash', ['-c', fill(command, ctx)], ctx, ctx.cwd)
      if (m && ran.code !== Number(m[2])) return failed(`'${command}' exited ${ran.code}, not ${m[2]}:\n${ran.output}`)
    }
    if (!ran) return failed('an output block with no block before it that ran, and no command')
    if (!outputMatches(fill(block.text, ctx), ran.output)) return failed(`the output differs from the doc's.\n--- doc\n${block.text}--- printed\n${ran.output}`)
    return { result: { block, status: 'passed' } }
  }
  if (block.lang === 'json') {
    try {
      JSON.parse(block.text)
    } catch (error) {
      return failed(`not JSON: ${(error as Error).message}`)
    }
    if (marker?.kind !== 'config') return { result: { block, status: 'passed' } }
    const file = join(ctx.cwd, `doc-test-config-${++scripts}.json`)
    writeFileSync(file, block.text)
    // serve must start with it: it prints its URL once listening, then is stopped.
    const log = `${file}.log`
    const script = `l9kit serve --port 0 --config ${file} > ${log} 2>&1 & pid=$!
for i in $(seq 200); do grep -q '^listening on' ${log} && break; kill -0 $pid 2>/dev/null || break; sleep 0.05; done
kill $pid 2>/dev/null; wait $pid; cat ${log}`
    const ran = await runProcess('bash', ['-c', script], { ...ctx, timeoutMs: 20_000 }, ctx.cwd)
    if (!/^listening on http:/m.test(ran.output)) return failed(`l9kit serve --config did not accept it:\n${ran.output}`)
    return { result: { block, status: 'passed' }, ran }
  }
  if (SHELL.has(block.lang)) {
    const ran = await runProcess('bash', ['-c', shellScript(fill(block.text, ctx), block.line)], ctx, ctx.cwd)
    if (ran.timedOut) return failed(`still running after ${(ctx.timeoutMs ?? 60_000) / 1000} s:\n${ran.output}`)
    if (ran.code !== 0) return { ...failed(`exit ${ran.code}:\n${ran.output}`), ran }
    return { result: { block, status: 'passed' }, ran }
  }
  if (SCRIPT.has(block.lang)) {
    const file = join(ctx.project, `doc-block-${++scripts}.${block.lang.startsWith('t') ? 'ts' : 'mjs'}`)
    writeFileSync(file, fill(block.text, ctx))
    const ran = await runProcess(join(ctx.root, 'node_modules', '.bin', 'tsx'), [file], ctx, ctx.project)
    if (ran.code !== 0) return { ...failed(`exit ${ran.code}:\n${ran.output}`), ran }
    return { result: { block, status: 'passed' }, ran }
  }
  return failed(`a '${block.lang || 'plain'}' block is not run: mark it <!-- doc-test: skip (why) -->, output, run by, or file`)
}

/** Runs the blocks of one file in order; one result per block. */
export async function runDoc(blocks: readonly DocBlock[], ctx: DocContext): Promise<BlockResult[]> {
  const results: BlockResult[] = []
  let previous: Ran | undefined
  for (const block of blocks) {
    const { result, ran } = await runBlock(block, ctx, previous)
    results.push(result)
    if (ran) previous = ran
  }
  return results
}

/** `file:line: message` for each failed block. */
export const failures = (results: readonly BlockResult[]) => results.filter((r) => r.status === 'failed').map((r) => `${r.block.file}:${r.block.line}: ${r.message}`)
