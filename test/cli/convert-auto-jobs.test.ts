/**
 * `--from auto` with `--jobs`: the records that do not fit the guess are reported, and
 * counted in the closing line, exactly as with `--jobs 1`. Runs the built CLI (dist/), as
 * jobs.test.ts does: the worker threads' entry point exists only there.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runBuilt } from '../support/built-cli.js'
import { fileTempDir } from '../support/temp.js'

const dir = fileTempDir('l9kit-auto-jobs-')
const run = (args: string[]) => runBuilt(args)

describe('convert --from auto --jobs', () => {
  it('reports and counts the records that do not fit the guess as --jobs 1 does', async () => {
    // ~5 MB of subfinder lines with a tlsx line every 97 lines.
    const lines: string[] = []
    for (let i = 1; lines.length < 60_000; i++) {
      lines.push(
        i % 97 === 0
          ? `{"host":"t${i}.example.com","ip":"192.0.2.1","port":"443","probe_status":true,"tls_version":"tls13"}`
          : `{"host":"s${i}.example.com","input":"example.com","source":"crtsh","padding":"${'x'.repeat(20)}"}`,
      )
    }
    const path = join(dir, 'mixed.jsonl')
    writeFileSync(path, `${lines.join('\n')}\n`)
    const args = ['convert', '--from', 'auto', '--to', 'hostport', path]
    const one = await run([...args, '--jobs', '1'])
    const misfits = Math.floor(60_000 / 97)
    expect(one.code).toBe(1)
    expect(one.stderr).toContain(`${path}:97: not a subfinder record: no source, sources or input (taken as subfinder from line 1; use --from tlsx to force another)\n`)
    expect(one.stderr).toContain(`${path}: ${misfits} records did not fit subfinder (taken as subfinder from line 1; use --from tlsx to force another)\n`)
    expect(await run([...args, '--jobs', '2'])).toEqual(one)
  }, 120_000)
})
