/**
 * docs/languages.md followed as a developer would: the blocks of one language's section, in
 * order, in a new folder. Its sh blocks run in one bash session (a `cd` carries on to the next
 * block); a block marked `<!-- doc-test: file NAME -->` is written to NAME under that folder.
 * Blocks marked for other tests, and output shown in the doc, are not run here.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'vitest'
import { blocksOf, type DocBlock } from '../docs/markdown.js'
import { ROOT, run } from './support.js'

export const LANGUAGES_DOC = join(ROOT, 'docs', 'languages.md')

/** The blocks under `## heading` in docs/languages.md, in order. */
export function sectionBlocks(heading: string): DocBlock[] {
  const text = readFileSync(LANGUAGES_DOC, 'utf8')
  const start = text.indexOf(`\n## ${heading}\n`)
  if (start === -1) throw new Error(`docs/languages.md has no section '## ${heading}'`)
  const end = text.indexOf('\n## ', start + 1)
  const before = text.slice(0, start).split('\n').length
  return blocksOf(LANGUAGES_DOC, text.slice(start, end === -1 ? undefined : end)).map((b) => ({ ...b, line: b.line + before - 1 }))
}

const isShell = (b: DocBlock) => b.lang === 'sh' && b.marker?.kind === 'run-by'

/** A bash script that does what `blocks` say, starting in `cwd` (files go under `base`); `where` gets the last folder. */
function script(blocks: readonly DocBlock[], base: string, cwd: string, where: string, edit: (text: string) => string): string {
  const lines = ['set -e -o pipefail', `cd ${JSON.stringify(cwd)}`]
  for (const block of blocks) {
    if (block.marker?.kind === 'file') {
      // Written when the steps reach it (a folder made too early would stop `cargo new`).
      const path = JSON.stringify(join(base, block.marker.name))
      lines.push(`mkdir -p "$(dirname ${path})" && printf '%s' '${Buffer.from(block.text).toString('base64')}' | base64 -d > ${path}`)
    } else if (isShell(block)) lines.push(`# docs/languages.md:${block.line}`, edit(block.text))
  }
  lines.push(`pwd > ${JSON.stringify(where)}`)
  return `${lines.join('\n')}\n`
}

export interface Follow {
  /** Where the steps ran in `start` (a marker of each step). */
  start: string
  /** Runs `work` in the folder the steps left off in, before the section's last sh block. */
  beforeLast?: (folder: string) => void | Promise<void>
  env: NodeJS.ProcessEnv
  /** Rewrites a sh block's text before it runs (only where the test cannot do what the doc says, such as an install from the registry: say why). */
  edit?: (text: string) => string
  timeout?: number
}

/** Follows `## heading`; resolves with the folder the steps ended in. Fails the test, naming the step, when one fails. */
export async function followSection(heading: string, options: Follow): Promise<string> {
  const blocks = sectionBlocks(heading)
  const last = blocks.map(isShell).lastIndexOf(true)
  expect(last, `docs/languages.md '## ${heading}' has no sh steps`).toBeGreaterThan(-1)
  const edit = options.edit ?? ((text: string) => text)
  const where = join(options.start, '.follow-where')
  const parts = options.beforeLast ? [blocks.slice(0, last), blocks.slice(last)] : [blocks]
  let folder = options.start
  for (const [i, part] of parts.entries()) {
    if (i === 1) await options.beforeLast!(folder)
    const result = await run('bash', ['-c', script(part, options.start, folder, where, edit)], { cwd: folder, env: options.env, timeout: options.timeout ?? 600_000 })
    expect(result.code, `following docs/languages.md '## ${heading}':\n${result.stdout}${result.stderr}`).toBe(0)
    folder = readFileSync(where, 'utf8').trim()
  }
  return folder
}
