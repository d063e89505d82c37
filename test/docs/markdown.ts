/**
 * The fenced code blocks of a Markdown file, each with the doc-test marker written just before
 * it (the nearest non-blank line above the fence):
 *
 *   <!-- doc-test: skip (REASON) -->       illustrative: not run; the reason is required
 *   <!-- doc-test: output -->              the output of the block before it, compared
 *   <!-- doc-test: output of COMMAND -->   the output of COMMAND (run as a sh block), compared
 *   <!-- doc-test: run by PATH -->         run by another test, which reads this file's blocks
 *   <!-- doc-test: file NAME -->           written to NAME in the doc's folder, for later blocks
 *   <!-- doc-test: config -->              a `l9kit serve --config` file: serve must accept it
 *
 * Blocks without a marker run by their language: sh (bash), ts and js (node, importing `l9kit`
 * as an installed package), json (must parse). Any other block needs a marker.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

export type Marker =
  | { kind: 'skip'; reason: string }
  | { kind: 'output'; command?: string }
  | { kind: 'run-by'; path: string }
  | { kind: 'file'; name: string }
  | { kind: 'config' }
  | { kind: 'invalid'; problem: string }

export interface DocBlock {
  /** The Markdown file, as given. */
  file: string
  /** Line of the opening fence (1-based). */
  line: number
  /** The fence's info string's first word, lower case ('' for none). */
  lang: string
  /** The block's lines, joined by newlines, with a final newline. */
  text: string
  marker?: Marker
}

const MARKER = /^<!--\s*doc-test:\s*(.*?)\s*-->$/

/** Reads a marker comment's text (what follows `doc-test:`). */
export function parseMarker(text: string): Marker {
  let m: RegExpExecArray | null
  if ((m = /^skip\s*\((.*)\)$/s.exec(text))) return m[1]!.trim() === '' ? { kind: 'invalid', problem: 'skip needs a reason: skip (why)' } : { kind: 'skip', reason: m[1]!.trim() }
  if (text === 'skip') return { kind: 'invalid', problem: 'skip needs a reason: skip (why)' }
  if (text === 'output') return { kind: 'output' }
  if ((m = /^output of (.+)$/s.exec(text))) return { kind: 'output', command: m[1]!.trim().replace(/^`(.*)`$/, '$1') }
  if ((m = /^run by (\S+)$/.exec(text))) return { kind: 'run-by', path: m[1]! }
  if ((m = /^file (\S+)$/.exec(text))) return { kind: 'file', name: m[1]! }
  if (text === 'config') return { kind: 'config' }
  return { kind: 'invalid', problem: `unknown doc-test marker '${text}'` }
}

/** Every fenced block of `markdown` (``` or ~~~ fences, any indentation up to three spaces). */
export function blocksOf(file: string, markdown = readFileSync(file, 'utf8')): DocBlock[] {
  const lines = markdown.split('\n')
  const blocks: DocBlock[] = []
  for (let i = 0; i < lines.length; i++) {
    const open = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/.exec(lines[i]!)
    if (!open) continue
    const fence = open[1]!
    const body: string[] = []
    let j = i + 1
    while (j < lines.length && !new RegExp(`^ {0,3}${fence[0]}{${fence.length},}\\s*$`).test(lines[j]!)) body.push(lines[j++]!)
    const block: DocBlock = { file, line: i + 1, lang: open[2]!.toLowerCase(), text: body.length ? `${body.join('\n')}\n` : '' }
    let k = i - 1
    while (k >= 0 && lines[k]!.trim() === '') k--
    const marker = k >= 0 ? MARKER.exec(lines[k]!.trim()) : null
    if (marker) block.marker = parseMarker(marker[1]!)
    blocks.push(block)
    i = j
  }
  return blocks
}

/** The Markdown files of the docs: README.md and every .md under docs/ (paths relative to `root`). */
export function docFiles(root: string): string[] {
  const md = (dir: string) => readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md')).map((f) => join(dir, f))
  return ['README.md', ...md('docs')].sort()
}
