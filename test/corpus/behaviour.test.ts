/**
 * No change of behaviour: what `validate` (strict, lenient) and `normalize` make of every corpus
 * file, and of the whole corpus as one large JSON Lines input (with one thread and with
 * `--jobs 2`), is what behaviour.json recorded (before issue 39's speed work). Re-record only
 * for a change that is meant: `npx tsx scripts/corpus-behaviour.ts`.
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { BUILT_CLI } from '../support/built-cli.js'
import {
  BEHAVIOUR_FILE,
  behaviourOf,
  corpusFiles,
  corpusLines,
  type FileBehaviour,
  linesBehaviour,
  outcome,
  type Recording,
  STDIN_COMMANDS,
} from './behaviour.js'

const recorded = JSON.parse(readFileSync(BEHAVIOUR_FILE, 'utf8')) as Recording

/** The built CLI as a child process, `input` on standard input. */
function runBuiltBytes(args: string[], input: Buffer): Promise<{ code: number; stdout: Buffer; stderr: Buffer }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BUILT_CLI, ...args], { stdio: ['pipe', 'pipe', 'pipe'] })
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', (b: Buffer) => out.push(b))
    child.stderr.on('data', (b: Buffer) => err.push(b))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code: code ?? -1, stdout: Buffer.concat(out), stderr: Buffer.concat(err) }))
    child.stdin.on('error', () => undefined) // a command that stops reading early is judged by its output
    child.stdin.end(input)
  })
}

describe('corpus behaviour', () => {
  it('records every corpus file, and no other', () => {
    expect(Object.keys(recorded.files)).toEqual(corpusFiles())
  })

  it.each(corpusFiles())('%s: validate strict and lenient, normalize', async (file) => {
    expect(await behaviourOf(file)).toEqual(recorded.files[file])
  })

  // Generous limits: three runs over 5 MiB each, on a machine that may be busy.
  it('the corpus as one large input, one thread', { timeout: 180_000 }, async () => {
    expect(await linesBehaviour()).toEqual(recorded.lines)
  })

  it('the corpus as one large input, --jobs 2 (built CLI, worker threads)', { timeout: 180_000 }, async () => {
    const input = corpusLines()
    const got: Partial<FileBehaviour> = {}
    for (const [name, args] of Object.entries(STDIN_COMMANDS) as [keyof FileBehaviour, string[]][]) {
      got[name] = outcome(await runBuiltBytes([...args, '--jobs', '2'], input), name === 'normalize' ? 'stderr' : 'stdout')
    }
    expect(got).toEqual(recorded.lines)
  })
})
