/**
 * gzip-compressed input, for every command that reads files or standard input: recognised by
 * its magic bytes (whatever the file is called), decompressed as a stream; a cut-off file is
 * exit 2 with the compressed byte offset, after the records before it were written.
 */
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import type { Io } from '../../src/cli/command.js'
import { main } from '../../src/cli/program.js'
import { emptyEvent } from '../../src/schema/index.js'
import { TOOLS_CORPUS } from '../support/golden.js'
import { Capture, runCli } from '../support/streams.js'
import { fileTempDir } from '../support/temp.js'

const dir = fileTempDir('l9kit-gzip-')
const RUN_START = ['--run-start', '2024-01-02T03:04:05Z']
const shodanText = readFileSync(join(TOOLS_CORPUS, 'shodan', 'typical.jsonl'))
const lines = (text: string) => text.split('\n').filter((l) => l !== '')

function file(name: string, bytes: Uint8Array): string {
  const path = join(dir, name)
  writeFileSync(path, bytes)
  return path
}

/** Runs the CLI in-process with bytes on standard input. */
async function runWithStdin(argv: string[], stdin: Uint8Array) {
  const stdout = new Capture()
  const stderr = new Capture()
  const io: Io = { stdin: Readable.from([Buffer.from(stdin)]), stdout, stderr, stderrIsTTY: false, env: {} }
  const code = await main(argv, io)
  return { code, stdout: stdout.text, stderr: stderr.text }
}

const events = Array.from({ length: 50 }, (_, i) => JSON.stringify({ ...emptyEvent(), event_type: 'service', event_source: 'gz', ip: `192.0.2.${i + 1}`, port: '80', summary: `n ${i}` }))
const eventsText = `${events.join('\n')}\n`

describe('gzip input', () => {
  it('convert reads a gzip file by its content, not its name, and auto recognises what is inside', async () => {
    const plain = await runCli(['convert', '--from', 'shodan', ...RUN_START, join(TOOLS_CORPUS, 'shodan', 'typical.jsonl')])
    const gz = file('banners.data', gzipSync(shodanText)) // no .gz in the name
    const r = await runCli(['convert', '--from', 'auto', ...RUN_START, gz])
    expect(r.code).toBe(0)
    expect(r.stdout).toBe(plain.stdout)
    expect(lines(r.stdout).length).toBeGreaterThan(3)
  })

  it('reads gzip on standard input, and concatenated members as one input', async () => {
    const half = Math.floor(shodanText.indexOf('\n', shodanText.length / 2)) + 1
    const joined = Buffer.concat([gzipSync(shodanText.subarray(0, half)), gzipSync(shodanText.subarray(half))])
    const plain = await runCli(['convert', '--from', 'shodan', ...RUN_START, join(TOOLS_CORPUS, 'shodan', 'typical.jsonl')])
    const r = await runWithStdin(['convert', '--from', 'shodan', ...RUN_START], joined)
    expect(r.code).toBe(0)
    expect(r.stdout).toBe(plain.stdout)
  })

  it('validate, normalize and fingerprint read gzip files too', async () => {
    const gz = file('events.jsonl.gz', gzipSync(eventsText))
    const plain = file('events.jsonl', Buffer.from(eventsText))
    for (const command of [['validate', '--profile', 'lenient'], ['normalize'], ['fingerprint']]) {
      const a = await runCli([...command, plain])
      const b = await runCli([...command, gz])
      expect(b.code, command[0]).toBe(a.code)
      expect(b.stdout, command[0]).toBe(a.stdout)
      expect(b.stdout.length).toBeGreaterThan(0)
    }
  })

  it('a truncated gzip file: exit 2 naming the compressed byte offset; the records before it are written', async () => {
    const whole = gzipSync(eventsText)
    const cut = whole.subarray(0, whole.length - 40)
    const gz = file('cut.jsonl.gz', cut)
    const r = await runCli(['normalize', gz])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(new RegExp(`^l9kit normalize: ${gz.replace(/[.]/g, '\\.')}: truncated gzip data .* at compressed byte ${cut.length} `))
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /)
    const written = lines(r.stdout)
    expect(written.length).toBeGreaterThan(40)
    expect(written.length).toBeLessThanOrEqual(50)
    for (const [i, l] of written.entries()) expect(JSON.parse(l)).toMatchObject({ ip: `192.0.2.${i + 1}` })
  })

  it('convert of a gzip file cut in its data keeps what it converted (exit 2)', async () => {
    const whole = gzipSync(`${shodanText}${shodanText}`)
    const gz = file('cut-shodan.json.gz', whole.subarray(0, whole.length - 20))
    const r = await runCli(['convert', '--from', 'shodan', ...RUN_START, gz])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/truncated gzip data .* at compressed byte \d+/)
    expect(lines(r.stdout).length).toBeGreaterThanOrEqual(lines((await runCli(['convert', '--from', 'shodan', ...RUN_START, join(TOOLS_CORPUS, 'shodan', 'typical.jsonl')])).stdout).length)
  })

  it('a gzip file cut only in its trailer is read whole, with a warning, by every command (issue 33)', async () => {
    // One pretty-printed document: before, nothing came out of it (the whole document was held until the error).
    const doc = JSON.stringify({ ...emptyEvent(), event_type: 'service', event_source: 'gz', ip: '192.0.2.1', port: '80', time: '2024-01-01T00:00:00Z' }, null, 2)
    const whole = gzipSync(`${doc}\n`)
    const gz = file('cut-trailer.json.gz', whole.subarray(0, whole.length - 4))
    const warning = `${gz}: the gzip trailer is cut short (4 of its 8 bytes at compressed byte ${whole.length - 8}): all ${doc.length + 1} bytes decompressed were read, but their CRC-32 could not be checked\n`
    const converted = await runCli(['convert', '--from', 'l9', ...RUN_START, gz])
    expect(converted).toMatchObject({ code: 0, stderr: `${warning}1 converted, 0 skipped\n` })
    expect(lines(converted.stdout)).toHaveLength(1)
    expect(await runCli(['validate', gz])).toMatchObject({ code: 0, stdout: '1 valid, 0 invalid\n', stderr: warning })
    expect(await runCli(['normalize', gz])).toMatchObject({ code: 0, stderr: warning })
    expect(await runCli(['fingerprint', gz])).toMatchObject({ code: 0, stderr: warning })
  })
})

describe('gzip input with --jobs (the built CLI: worker threads run only there)', () => {
  it('validate and convert --jobs 2 write what --jobs 1 writes for a large gzip file', () => {
    const many: string[] = []
    for (let i = 0; many.length < 30000; i++) many.push(JSON.stringify({ ...emptyEvent(), event_type: 'service', event_source: 'gz', ip: `198.51.100.${i % 250}`, port: String(1 + (i % 65535)), summary: `line ${i} ${'y'.repeat(i % 200)}` }))
    // Compressed size above the size at which workers start (4 MiB): random-looking summaries.
    const noise = Array.from({ length: many.length }, () => randomBytes(160).toString('base64'))
    const text = many.map((l, i) => l.replace('"summary":"', `"summary":"${noise[i]} `)).join('\n') + '\n'
    const gz = file('large.jsonl.gz', gzipSync(text))
    expect(statSync(gz).size).toBeGreaterThan(4 << 20)
    const cli = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js')
    for (const command of [['validate', '--profile', 'lenient'], ['convert', '--from', 'l9', ...RUN_START]]) {
      const one = spawnSync(process.execPath, [cli, ...command, '--jobs', '1', gz], { maxBuffer: 1 << 30 })
      const two = spawnSync(process.execPath, [cli, ...command, '--jobs', '2', gz], { maxBuffer: 1 << 30 })
      expect(one.status, command[0]).toBe(0)
      expect(two.status, command[0]).toBe(0)
      expect(two.stdout.equals(one.stdout), command[0]).toBe(true)
      expect(one.stdout.length, command[0]).toBeGreaterThan(command[0] === 'convert' ? text.length / 2 : 10)
    }
  }, 360_000)

  it('a large truncated gzip file: --jobs 2 writes what --jobs 1 writes, the records before the cut, then exit 2', () => {
    const text = Array.from({ length: 40000 }, (_, i) => JSON.stringify({ ...emptyEvent(), event_type: 'service', event_source: 'gz', ip: `198.51.100.${i % 250}`, port: '443', summary: randomBytes(160).toString('base64') })).join('\n')
    const whole = gzipSync(`${text}\n`)
    const gz = file('large-cut.jsonl.gz', whole.subarray(0, Math.floor(whole.length * 0.8)))
    expect(statSync(gz).size).toBeGreaterThan(4 << 20)
    const cli = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js')
    const one = spawnSync(process.execPath, [cli, 'normalize', '--jobs', '1', gz], { maxBuffer: 1 << 30 })
    const two = spawnSync(process.execPath, [cli, 'normalize', '--jobs', '2', gz], { maxBuffer: 1 << 30 })
    expect(one.status).toBe(2)
    expect(two.status).toBe(2)
    expect(one.stderr.toString()).toMatch(/truncated gzip data .* at compressed byte \d+/)
    expect(two.stderr.toString()).toBe(one.stderr.toString())
    expect(two.stdout.equals(one.stdout)).toBe(true)
    expect(lines(one.stdout.toString()).length).toBeGreaterThan(20000)
  }, 360_000)

  it('convert --from shodan --jobs 2 writes what --jobs 1 writes for a large gzip download', () => {
    const banners = shodanText.toString('utf8').split('\n').filter((l) => l.startsWith('{'))
    const text = Array.from({ length: 16000 }, (_, i) => {
      const b = JSON.parse(banners[i % banners.length]!) as Record<string, unknown>
      return JSON.stringify({ ...b, ip_str: `203.0.113.${i % 250}`, port: 1 + (i % 65535), data: `${String(b.data)}${randomBytes(300).toString('base64')}` })
    })
    text.splice(7001, 0, '[INF] a log line in the middle')
    const gz = file('shodan-large.json.gz', gzipSync(`${text.join('\n')}\n`))
    expect(statSync(gz).size).toBeGreaterThan(4 << 20)
    const cli = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js')
    const one = spawnSync(process.execPath, [cli, 'convert', '--from', 'auto', ...RUN_START, '--jobs', '1', gz], { maxBuffer: 1 << 30 })
    const two = spawnSync(process.execPath, [cli, 'convert', '--from', 'auto', ...RUN_START, '--jobs', '2', gz], { maxBuffer: 1 << 30 })
    expect(one.status).toBe(1) // the log line is skipped
    expect(two.status).toBe(1)
    expect(two.stdout.equals(one.stdout)).toBe(true)
    expect(two.stderr.toString()).toBe(one.stderr.toString())
    expect(one.stderr.toString()).toContain(`${gz}:7002: log line, not a record`)
  }, 540_000)
})
