/**
 * The options every command takes (src/cli/common-options.ts): -o/--output, -q/--quiet,
 * --max-errors (also through --jobs workers, where lines come in blocks), their --help lines,
 * "did you mean", the hint on a terminal's standard input, progress bars, and file options
 * judged before the run.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import type { Io } from '../../src/cli/command.js'
import { commands } from '../../src/cli/commands/index.js'
import { main } from '../../src/cli/program.js'
import { closest } from '../../src/cli/suggest.js'
import { VERSION } from '../../src/cli/version.js'
import { emptyEvent } from '../../src/schema/index.js'
import { runBuilt } from '../support/built-cli.js'
import { Capture, runCli } from '../support/streams.js'
import { fileTempDir } from '../support/temp.js'

const dir = fileTempDir('l9kit-common-')
const good = JSON.stringify(emptyEvent())
const bad = (i: number) => JSON.stringify({ ...emptyEvent(), port: i })
const warned = JSON.stringify({ ...emptyEvent(), x_extra: 1 })
/** 100 invalid records (each one line of text: /port), 3 valid ones. */
const mixed = [good, ...Array.from({ length: 100 }, (_, i) => bad(i)), good, good].join('\n') + '\n'

function file(name: string, text: string): string {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

/** Runs in-process with a chosen Io (for terminals and progress). */
async function runWith(argv: string[], io: Partial<Io>): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new Capture()
  const stderr = new Capture()
  const code = await main(argv, { stdin: Readable.from([]), stdout, stderr, stderrIsTTY: false, env: {}, ...io })
  return { code, stdout: stdout.text, stderr: stderr.text }
}

describe('-o/--output FILE', () => {
  it('writes standard output to FILE, in every spelling', async () => {
    const input = file('in.jsonl', `${good}\n${bad(1)}\n`)
    for (const [n, args] of [['a', ['-o']], ['b', ['--output']], ['c', []]] as const) {
      const out = join(dir, `out-${n}.txt`)
      const argv = args.length ? ['validate', ...args, out, input] : ['validate', `--output=${out}`, input]
      const r = await runCli(argv)
      expect(r).toMatchObject({ code: 1, stdout: '', stderr: '' })
      expect(readFileSync(out, 'utf8')).toBe(`${input}:2: /port: expected string, found integer 1\n1 valid, 1 invalid\n`)
    }
  })

  it('fails at once, as every file option does, when FILE cannot be written', async () => {
    const input = file('in2.jsonl', `${good}\n`)
    expect(await runCli(['normalize', '-o', dir, input])).toEqual({ code: 2, stdout: '', stderr: `l9kit normalize: ${dir}: is a directory\n` })
    expect(await runCli(['validate', '-o', join(dir, 'no', 'such', 'x'), input])).toEqual({ code: 2, stdout: '', stderr: `l9kit validate: ${join(dir, 'no', 'such', 'x')}: no such file or directory\n` })
  })

  it('refuses an output that is also an input (it would be emptied before it is read)', async () => {
    const input = file('same.jsonl', `${good}\n`)
    const r = await runCli(['normalize', input, '-o', input])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('is also an input')
    expect(readFileSync(input, 'utf8')).toBe(`${good}\n`)
  })
})

describe('-q/--quiet', () => {
  it('validate: problems only, no warnings, no summary; the exit status tells', async () => {
    const r = await runCli(['validate', '-q'], `${good}\n${warned}\n${bad(1)}\n`)
    expect(r).toEqual({ code: 1, stdout: '<stdin>:3: /port: expected string, found integer 1\n', stderr: '' })
    expect(await runCli(['validate', '--quiet'], `${good}\n`)).toEqual({ code: 0, stdout: '', stderr: '' })
  })

  it('normalize and convert: no warnings and no summary lines; problems stay', async () => {
    const n = await runCli(['normalize', '-q'], `${warned}\n{oops\n`)
    expect(n.code).toBe(1)
    expect(n.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^<stdin>:2: \(document\): not valid JSON/)])
    const c = await runCli(['convert', '--from', 'hostport', '-q'], '192.0.2.1:80\nnot an address\n')
    expect(c.code).toBe(1)
    expect(c.stderr).not.toMatch(/converted, \d+ skipped/)
    expect(c.stderr).toContain('<stdin>:2')
  })
})

describe('--max-errors N', () => {
  it('validate text: the first N problem lines, how many more, the summary; exit status unchanged', async () => {
    const r = await runCli(['validate', '--max-errors', '3'], mixed)
    expect(r.code).toBe(1)
    expect(r.stdout.split('\n')).toEqual([
      '<stdin>:2: /port: expected string, found integer 0',
      '<stdin>:3: /port: expected string, found integer 1',
      '<stdin>:4: /port: expected string, found integer 2',
      '… 97 more problem lines not shown (--max-errors 3)',
      '3 valid, 100 invalid',
      '',
    ])
  })

  it('validate json: N records, and not_shown in the summary', async () => {
    const r = await runCli(['validate', '--format', 'json', '--max-errors=2'], mixed)
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(lines).toHaveLength(3)
    expect(lines[2]).toEqual({ valid: 3, invalid: 100, not_shown: 98 })
  })

  it('normalize, fingerprint and convert hold back problem lines on standard error', async () => {
    const n = await runCli(['normalize', '--max-errors', '1'], `${'{oops\n'.repeat(5)}${good}\n`)
    expect(n.code).toBe(1)
    expect(n.stdout).toBe(`${good}\n`)
    expect(n.stderr.split('\n').slice(1)).toEqual(['… 4 more problem lines not shown (--max-errors 1)', 'normalize: 1 normalised, 5 failed', ''])
    // Numbers, not objects ('[]' would be an empty list of documents: nothing to report).
    const f = await runCli(['fingerprint', '--max-errors', '2'], '1\n'.repeat(4))
    expect(f.stderr.trim().split('\n')).toHaveLength(3)
    expect(f.stderr).toContain('… 2 more problem lines not shown (--max-errors 2)')
    const c = await runCli(['convert', '--from', 'hostport', '--max-errors', '1'], 'x\ny\nz\n')
    expect(c.stderr.trim().split('\n').slice(1)).toEqual(['… 2 more problem lines not shown (--max-errors 1)', '0 converted, 3 skipped'])
  })

  it('cuts the same place when --jobs workers write the lines in blocks', async () => {
    // Large enough for the worker path (MIN_PARALLEL_BYTES), with problems all through it.
    const lines = Array.from({ length: 12_000 }, (_, i) => (i % 7 === 3 ? bad(i) : good))
    const input = file('big.jsonl', lines.join('\n') + '\n')
    const one = await runBuilt(['validate', '--jobs', '1', '--max-errors', '50', input])
    const two = await runBuilt(['validate', '--jobs', '2', '--max-errors', '50', input])
    expect(two).toEqual(one)
    expect(one.stdout.split('\n')).toHaveLength(53)
    expect(one.stdout).toContain(`more problem lines not shown (--max-errors 50)\n${12_000 - 1714} valid, 1714 invalid\n`)
    const broken = file('big-broken.jsonl', lines.map((line, i) => (i % 7 === 3 ? '{oops' : line)).join('\n') + '\n')
    const n1 = await runBuilt(['normalize', '--jobs', '1', '--max-errors', '5', broken])
    const n2 = await runBuilt(['normalize', '--jobs', '2', '--max-errors', '5', broken])
    expect(n2).toEqual(n1)
    expect(n1.stderr.split('\n')[5]).toBe('… 1709 more problem lines not shown (--max-errors 5)')
  }, 180_000)

  it('is refused where it means nothing, and must be a positive integer', async () => {
    const r = await runCli(['schema', '--max-errors', '3'])
    expect(r.code).toBe(2)
    expect(r.stderr).toBe('l9kit schema: --max-errors does not apply to this command (it does to validate, normalize, filter, fingerprint, convert)\n')
    expect((await runCli(['validate', '--max-errors', '0'])).stderr).toContain('--max-errors must be a positive integer')
    expect((await runCli(['validate', '--max-errors'])).stderr).toContain('--max-errors needs a value')
  })
})

describe('--help', () => {
  it("every command's help lists the options every command takes, and --max-errors where it applies", async () => {
    for (const entry of commands) {
      const r = await runCli([entry.name, '--help'])
      expect(r.code).toBe(0)
      expect(r.stdout).toContain('-o, --output FILE')
      expect(r.stdout).toContain('-q, --quiet')
      expect(r.stdout.includes('--max-errors N')).toBe((await entry.load()).common?.includes('max-errors') === true)
    }
  })

  it('l9kit --version is the package version', async () => {
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }
    expect(VERSION).toBe(pkg.version)
    expect((await runCli(['--version'])).stdout).toBe(`${pkg.version}\n`)
    for (const word of ['-V', '-v', 'version']) expect(await runCli([word]), word).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' })
  })

  it('reports a failed read (EIO) as an I/O error, exit 2, not as a bug of l9kit', async () => {
    const eio = Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO', errno: -5, syscall: 'read' })
    for (const command of ['validate', 'normalize', 'filter']) {
      const stdin = new Readable({ read() { this.destroy(eio) } })
      const stdout = new Capture()
      const stderr = new Capture()
      const io: Io = { stdin, stdout, stderr, stderrIsTTY: false, env: {} }
      const code = await main(command === 'filter' ? ['filter', '*', '--jobs', '1'] : [command, '--jobs', '1'], io)
      expect([code, stderr.text], command).toEqual([2, `l9kit ${command}: I/O error: input/output error (EIO: the device or file system failed) (read)\n`])
    }
  })

  it('l9kit help COMMAND prints the command\'s help, as COMMAND --help does', async () => {
    const own = await runCli(['validate', '--help'])
    expect(own.stdout).toMatch(/^Usage: l9kit validate/)
    expect(await runCli(['help', 'validate'])).toEqual(own)
    expect((await runCli(['help', 'valdiate'])).stderr).toContain("did you mean 'validate'?")
    expect((await runCli(['help'])).stdout).toContain("'l9kit help <command>'")
  })
})

describe('did you mean', () => {
  it('names the closest command, option, option value and --fields path', async () => {
    expect((await runCli(['valdiate'])).stderr).toBe("l9kit: unknown command 'valdiate'; did you mean 'validate'? (see 'l9kit --help')\n")
    expect((await runCli(['--verison'])).stderr).toContain("did you mean '--version'?")
    expect((await runCli(['normalize', '--header-cas', 'lower'])).stderr).toContain("Unknown option '--header-cas'; did you mean '--header-case'?")
    expect((await runCli(['validate', '--quite'])).stderr).toContain("did you mean '--quiet'?")
    expect((await runCli(['validate', '--format', 'sraif'])).stderr).toContain("(got 'sraif'; did you mean 'sarif'?)")
    const fields = await runCli(['convert', '--from', 'l9', '--to', 'csv', '--fields', 'ip,http.stauts'])
    expect(fields.code).toBe(2)
    expect(fields.stderr).toContain("unknown field 'http.stauts'; did you mean 'http.status'?")
  })

  it('suggests nothing when nothing is close, or two words are equally close', () => {
    expect(closest('zzzzzz', ['validate', 'normalize'])).toBeUndefined()
    expect(closest('v3', ['v1', 'v2'])).toBeUndefined()
    expect(closest('--prof', ['--profile', '--format'])).toBe('--profile')
  })
})

describe('standard input from a terminal', () => {
  const terminal = (text: string) => Object.assign(Readable.from([Buffer.from(text)]), { isTTY: true })

  it('hints how to end it or give a FILE, once the command starts reading it', async () => {
    const r = await runWith(['validate'], { stdin: terminal(`${good}\n`) })
    expect(r.code).toBe(0)
    expect(r.stderr).toBe("l9kit validate: reading standard input from the terminal: paste or type, then Ctrl-D to end (Ctrl-C to stop); give a FILE to read a file, or see 'l9kit validate --help'\n")
    expect(r.stdout).toBe('1 valid, 0 invalid\n')
  })

  it('says nothing with --quiet, for a FILE, or when the command never reads it', async () => {
    expect((await runWith(['validate', '-q'], { stdin: terminal(`${good}\n`) })).stderr).toBe('')
    expect((await runWith(['validate', file('t.jsonl', `${good}\n`)], { stdin: terminal('') })).stderr).toBe('')
    expect((await runWith(['schema', '--list'], { stdin: terminal('') })).stderr).toBe('')
  })
})

describe('progress', () => {
  it('validate, normalize and fingerprint draw a bar on a terminal for files, and never with -q', async () => {
    const input = file('progress.jsonl', `${good}\n${bad(1)}\n`)
    for (const command of ['validate', 'normalize', 'fingerprint']) {
      const shown = await runWith([command, input], { stderrIsTTY: true })
      expect(shown.stderr, command).toMatch(/\r\x1b\[K.*progress\.jsonl \[#+\] 100%/)
      const plain = await runWith([command, input], { stderrIsTTY: false })
      expect(shown.stdout, command).toBe(plain.stdout)
      expect((await runWith([command, '-q', input], { stderrIsTTY: true })).stderr, command).not.toContain('\x1b[K')
    }
  })
})

describe('file options judged before the run', () => {
  it('conform --report: an unwritable path fails at once, before any request', async () => {
    // stdout is empty: the run's first line ('l9kit conform URL (seed …)') was never written.
    const r = await runCli(['conform', '--base-url', 'http://127.0.0.1:9', '--report', `json:${join(dir, 'missing', 'r.json')}`])
    expect(r).toEqual({ code: 2, stdout: '', stderr: `l9kit conform: ${join(dir, 'missing', 'r.json')}: no such file or directory\n` })
    const d = await runCli(['conform', '--base-url', 'http://127.0.0.1:9', '--report', `junit:${dir}`])
    expect(d.stderr).toBe(`l9kit conform: ${dir}: is a directory\n`)
  })

  it('serve --config: a directory or a missing file is worded as for the other file options', async () => {
    expect(await runCli(['serve', '--port', '0', '--config', dir])).toEqual({ code: 2, stdout: '', stderr: `l9kit serve: ${dir}: is a directory\n` })
    const missing = join(dir, 'nope.json')
    expect((await runCli(['serve', '--port', '0', '--config', missing])).stderr).toBe(`l9kit serve: ${missing}: no such file or directory\n`)
  })
})
