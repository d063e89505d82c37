/**
 * The doc runner fails when a doc block stops working: broken blocks planted in a doc of our
 * own making, and in a copy of the real docs/normalize.md with one command broken.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { VERSION } from '../../src/cli/version.js'
import { ROOT } from '../corpus/files.js'
import { fileTempDir } from '../support/temp.js'
import { binWithL9kit, docContext } from './context.js'
import { blocksOf } from './markdown.js'
import { failures, outputMatches, runDoc } from './runner.js'

const dir = fileTempDir('l9kit-planted-')
const bin = binWithL9kit(ROOT, join(dir, 'bin'))

/** Runs the blocks of `markdown` (no service: port 9 refuses). */
async function run(name: string, markdown: string): Promise<string[]> {
  const file = join(dir, `${name}.md`)
  writeFileSync(file, markdown)
  const ctx = await docContext(ROOT, join(dir, name), 9, bin)
  return failures(await runDoc(blocksOf(file), ctx))
}

const fence = '```'

describe('the doc runner', () => {
  it('passes working blocks, and fails each kind of broken one, naming its line', async () => {
    const doc = [
      `${fence}sh`, 'l9kit --version', fence, // line 1: works
      '<!-- doc-test: output -->', `${fence}text`, VERSION, fence, // line 5: matches
      `${fence}sh`, 'l9kit validat corpus/valid/empty-canonical.json', fence, // line 8: a mistyped command
      `${fence}sh`, 'l9kit --version', fence, // line 11
      '<!-- doc-test: output -->', `${fence}text`, '9.9.9', fence, // line 15: output that differs
      `${fence}sh`, 'l9kit validate corpus/valid/empty-canonical.json   # exit 1', fence, // line 18: exits 0, not 1
      `${fence}text`, 'unmarked', fence, // line 21: neither run nor marked
      '<!-- doc-test: skip -->', `${fence}sh`, 'true', fence, // line 25: skip without a reason
      '<!-- doc-test: skip (needs a tool) -->', `${fence}sh`, 'exit 3', fence, // line 29: skipped, fine
      `${fence}json`, '{"a": 1,}', fence, // line 32: not JSON
      '<!-- doc-test: config -->', `${fence}json`, '{"keys": [{"name": "a", "key": "short", "plan": "pro"}]}', fence, // line 36: serve refuses it
    ].join('\n')
    const failed = await run('mixed', `${doc}\n`)
    expect(failed.map((f) => /^\S+:(\d+): /.exec(f)?.[1])).toEqual(['8', '15', '18', '21', '25', '32', '36'])
    expect(failed[0]).toContain("unknown command 'validat'")
    expect(failed[1]).toContain("the output differs from the doc's")
    expect(failed[2]).toContain('exited 0, not 1')
    expect(failed[3]).toContain('mark it')
    expect(failed[4]).toContain('skip needs a reason')
    expect(failed[6]).toContain('did not accept it')
  }, 180_000)

  it('fails on the real docs/normalize.md once one of its commands stops working', async () => {
    const real = readFileSync(join(ROOT, 'docs', 'normalize.md'), 'utf8')
    expect(await run('normalize-as-is', real)).toEqual([])
    const broken = real.replace('l9kit fingerprint --algo v2 canonical.jsonl', 'l9kit fingerprint --algo v3 canonical.jsonl')
    expect(broken).not.toBe(real)
    const failed = await run('normalize-broken', broken)
    expect(failed).toHaveLength(1)
    expect(failed[0]).toMatch(/normalize-broken\.md:\d+: exit 97:/)
    expect(failed[0]).toContain("--algo must be one of v1, v2 (got 'v3')")
  }, 180_000)

  it('compares output with … standing for lines or text', () => {
    expect(outputMatches('a\n…\nd: …\n', 'a\nb\nc\nd: 42\n')).toBe(true)
    expect(outputMatches('a\n…\nd: …\n', 'a\nb\nc\ne: 42\n')).toBe(false)
    expect(outputMatches('a\nb\n', 'a\nb\nc\n')).toBe(false)
  })
})
