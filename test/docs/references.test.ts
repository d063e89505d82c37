/**
 * The documents point inside the repository: every relative link of README.md and docs/ names a
 * file that is there (and a heading of it, for `file.md#anchor`), no text cites a document that
 * is not in the repository (the specification and design notes l9kit was written from: their
 * text is in docs/specification.md), and every conformance check's `specification` names a
 * section of docs/specification.md, a document of docs/ or a published file of schema/.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CHECKS } from '../../src/conformance/checks/index.js'
import { ROOT } from '../corpus/files.js'
import { docFiles } from './markdown.js'

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '')
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)))
}

/** Documents l9kit was written from that are not part of it. */
const OUTSIDE = /\bspec\/[\w-]+\.md|\bDESIGN\.md|\b(?:facts|leakix-api|event-and-api|tool-formats)\.md/

describe('references in the docs', () => {
  const files = docFiles(ROOT)

  it('every relative link names a file of the repository, and a heading of it', () => {
    const broken: string[] = []
    for (const file of files) {
      // Code blocks and spans left out: a pattern there can look like a link.
      const text = readFileSync(join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '')
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target!) || target!.startsWith('#')) continue
        const [path, anchor] = target!.split('#') as [string, string | undefined]
        const resolved = join(ROOT, dirname(file), decodeURIComponent(path))
        if (!existsSync(resolved)) broken.push(`${file}: ${target} (no such file)`)
        else if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) broken.push(`${file}: ${target} (no such heading in ${relative(ROOT, resolved)})`)
      }
    }
    expect(broken).toEqual([])
  })

  it('no text cites a document that is not in the repository', () => {
    const cited = files.flatMap((file) =>
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (OUTSIDE.test(line) ? [`${file}:${i + 1}: ${line.trim().slice(0, 120)}`] : [])),
    )
    expect(cited).toEqual([])
  })

  it("every conformance check's specification is a section of docs/specification.md, a document of docs/ or a file of schema/", () => {
    const headings = anchorsOf(join(ROOT, 'docs', 'specification.md'))
    for (const check of CHECKS) {
      expect(check.spec, check.id).not.toMatch(OUTSIDE)
      for (const part of check.spec.split('; ')) {
        // A document of docs/, or a published file of schema/ (the OpenAPI document's parts).
        const doc = /^(docs\/[\w-]+\.md|schema\/[\w.-]+)/.exec(part)
        if (doc) expect(existsSync(join(ROOT, doc[1]!)), `${check.id}: ${part}`).toBe(true)
        else if (/^RFC \d+ /.test(part)) continue // a public standard, cited by number and section
        else {
          // A section (and a subsection) of docs/specification.md, before any parenthesis.
          const named = part.replace(/\s*\(.*$/, '').replace(/^LeakIX's API: /, '')
          for (const section of named.split(/: |, | and /)) expect(headings.has(slug(section)), `${check.id}: '${section}' in '${check.spec}'`).toBe(true)
        }
      }
    }
  })
})
