/**
 * `--from auto` with `--jobs` on a JSON input of two tools: each record converted as its own
 * tool's, a record no format recognises reported and counted, exactly as with `--jobs 1`.
 * Runs the built CLI (dist/), as jobs.test.ts does: the worker threads' entry point exists
 * only there.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runBuilt } from '../support/built-cli.js'
import { fileTempDir } from '../support/temp.js'

const dir = fileTempDir('l9kit-auto-jobs-')
const run = (args: string[]) => runBuilt(args)

describe('convert --from auto --jobs', () => {
  it('converts each record as its own tool, and reports the unknown ones, as --jobs 1 does', async () => {
    // ~5 MB of subfinder lines with a tlsx line every 97 lines and an unknown one every 1 000.
    const lines: string[] = []
    for (let i = 1; lines.length < 60_000; i++) {
      lines.push(
        i % 1000 === 0
          ? `{"unknown":${i}}`
          : i % 97 === 0
            ? `{"host":"t${i}.example.com","ip":"192.0.2.1","port":"443","probe_status":true,"tls_version":"tls13"}`
            : `{"host":"s${i}.example.com","input":"example.com","source":"crtsh","padding":"${'x'.repeat(20)}"}`,
      )
    }
    const path = join(dir, 'mixed.jsonl')
    writeFileSync(path, `${lines.join('\n')}\n`)
    const args = ['convert', '--from', 'auto', '--to', 'csv', '--fields', 'event_source,host', path]
    const one = await run([...args, '--jobs', '1'])
    const unknown = Math.floor(60_000 / 1000)
    const tlsx = Math.floor(60_000 / 97) - Math.floor(60_000 / (97 * 1000))
    expect(one.code).toBe(1)
    const rows = one.stdout.split('\r\n').slice(1, -1)
    expect(rows.filter((r) => r.startsWith('tlsx,t'))).toHaveLength(tlsx)
    expect(rows.filter((r) => r.startsWith('subfinder,s'))).toHaveLength(60_000 - tlsx - unknown)
    expect(one.stderr).toContain(`${path}:1000: no format recognises this record (members unknown); name its format with --from\n`)
    expect(one.stderr).toContain(`${60_000 - unknown} converted, ${unknown} skipped\n`)
    expect(await run([...args, '--jobs', '2'])).toEqual(one)
  }, 360_000)
})
