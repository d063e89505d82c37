/**
 * A pretty-printed JSON array (nuclei's `-json-export`, `jq .` output) that does not parse as a
 * whole: one broken element must not cost the others. Encoders indent every element the same
 * way, so an element starts at each line that opens an object or array at the first element's
 * indentation; each such stretch of lines is parsed on its own, and only the broken one fails.
 */
import type { Issue } from '../validate/issue.js'
import { type Parsed, parseRecord } from './parse.js'

export interface Element {
  /** 1-based line where the element starts. */
  line: number
  /** Character offset of that line in the text. */
  offset: number
  parsed: Parsed
}

interface TextLine {
  start: number
  text: string
}

function splitLines(text: string): TextLine[] {
  const lines: TextLine[] = []
  let start = 0
  while (start <= text.length) {
    const nl = text.indexOf('\n', start)
    const end = nl === -1 ? text.length : nl
    lines.push({ start, text: text.slice(start, end).replace(/\r$/, '') })
    if (nl === -1) break
    start = nl + 1
  }
  return lines
}

const trailing = (issue: Issue): Parsed => ({ error: issue })

/**
 * The elements of a pretty-printed array text, each parsed alone; undefined when the text is
 * not laid out that way (its first non-blank line is not a lone `[`), so the caller falls back
 * to reading it line by line.
 */
export function resyncArray(text: string): Element[] | undefined {
  const lines = splitLines(text)
  const open = lines.findIndex((l) => l.text.trim() !== '')
  if (open === -1 || lines[open]!.text.trim() !== '[') return undefined
  const firstElement = lines.findIndex((l, i) => i > open && l.text.trim() !== '')
  if (firstElement === -1) return undefined
  const indent = /^[ \t]*/.exec(lines[firstElement]!.text)![0]
  const opens = (l: TextLine) => l.text.startsWith(indent) && /^[{[]/.test(l.text.slice(indent.length))
  if (!opens(lines[firstElement]!)) return undefined
  // The array's closing bracket: the last non-blank line, when it is a lone `]`.
  let close = lines.length
  for (let i = lines.length - 1; i > firstElement; i--) {
    if (lines[i]!.text.trim() === '') continue
    if (lines[i]!.text.trim() === ']') close = i
    break
  }
  const elements: Element[] = []
  let from = firstElement
  for (let i = firstElement + 1; i <= close; i++) {
    if (i < close && !opens(lines[i]!)) continue
    const body = lines
      .slice(from, i)
      .map((l) => l.text)
      .join('\n')
      .trim()
      .replace(/,$/, '')
    elements.push({ line: from + 1, offset: lines[from]!.start, parsed: parseRecord(body) })
    from = i
  }
  if (close === lines.length) {
    const last = elements.at(-1)
    const cut: Issue = { code: 'bad_json', pointer: '', message: 'not valid JSON: the array has no closing bracket (truncated?)' }
    if (last && 'value' in last.parsed) elements.push({ line: lines.length, offset: lines.at(-1)!.start, parsed: trailing(cut) })
  }
  return elements
}
