/**
 * What a run keeps when it cannot go on: a bug of ours on one record costs that record only
 * (reported with its position, a stack and a request to report it); a fatal I/O error still
 * leaves every line already produced on standard output.
 */
import { Readable } from 'node:stream'
import { describe, expect, it, vi } from 'vitest'
import type { Io } from '../../src/cli/command.js'
import { main } from '../../src/cli/program.js'
import { serializeEvent } from '../../src/normalize/index.js'
import type { Event } from '../../src/schema/index.js'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { REPO_ROOT } from '../support/golden.js'
import { Capture, runCli } from '../support/streams.js'

// A validator with a bug on documents that carry a `boom` member (the CLI's judge: load-judge.ts).
vi.mock('../../src/validate/load-judge.js', async (original) => {
  const real = await original<typeof import('../../src/validate/load-judge.js')>()
  return {
    ...real,
    loadJudge: async (name: Parameters<typeof real.loadJudge>[0]) => {
      const judge = await real.loadJudge(name)
      return (doc: unknown) => {
        if (typeof doc === 'object' && doc !== null && 'boom' in doc) throw new TypeError('cannot read properties of undefined')
        return judge(doc)
      }
    },
  }
})

const VALID = join(REPO_ROOT, 'corpus', 'valid')
/** The n-th valid corpus document as one compact line (already canonical). */
// Canonical text of a corpus document (its header names in byte order, as normalize writes them).
const event = (n: number) => serializeEvent(JSON.parse(readFileSync(join(VALID, readdirSync(VALID).filter((f) => f.endsWith('.json'))[n]!), 'utf8')) as Event)

describe('a bug of ours on one record', () => {
  it('is reported with file:line, the stack and a request to report it; the other records go on; exit 1', async () => {
    const run = await runCli(['validate', '-'], `${event(1)}\n{"ip":"192.0.2.1","boom":1}\n${event(3)}\n`)
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(/^<stdin>:2: \(document\): internal error: TypeError: cannot read properties of undefined \(this is a bug in l9kit: please report it/m)
    expect(run.stdout).toMatch(/\n\s+at /) // the stack, for the report
    expect(run.stdout).toContain('2 valid, 1 invalid')
  })
})

describe('a fatal I/O error mid-run', () => {
  it('keeps the lines already produced on standard output, then exits 2 naming the input', async () => {
    const lines = [event(1), event(2), event(3)]
    // Reads the lines, then fails as a broken disk does.
    const stdin = Readable.from(
      (async function* () {
        yield Buffer.from(lines.join('\n') + '\n')
        throw Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO', path: '/data/scan.jsonl' })
      })(),
    )
    const stdout = new Capture()
    const stderr = new Capture()
    const io: Io = { stdin, stdout, stderr, stderrIsTTY: false, env: {} }
    expect(await main(['normalize', '-'], io)).toBe(2)
    expect(stdout.text).toBe(lines.map((l) => l + '\n').join(''))
    expect(stderr.text).toBe('l9kit normalize: /data/scan.jsonl: input/output error (EIO: the device or file system failed)\n')
  })
})
