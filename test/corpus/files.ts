/** The bundled corpus: file listings and loaders shared by the corpus tests. */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const VALID_DIR = join(ROOT, 'corpus', 'valid')
export const INVALID_DIR = join(ROOT, 'corpus', 'invalid')

export interface Expected {
  code: string
  pointer: string
}

const isExpectation = (name: string) => name.endsWith('.expected.json')

/** Document file names of a corpus directory (expectation files excluded), sorted. */
export function documentNames(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json') && !isExpectation(name))
    .sort()
}

/** Expectation file names of a corpus directory, sorted. */
export function expectationNames(dir: string): string[] {
  return readdirSync(dir).filter(isExpectation).sort()
}

export const expectationOf = (name: string) => name.replace(/\.json$/, '.expected.json')

export function readJson(dir: string, name: string): unknown {
  return JSON.parse(readFileSync(join(dir, name), 'utf8'))
}

/** The path the cross-check script prints for a document: relative to the repository, with `/`. */
export const corpusPath = (dir: string, name: string) => `corpus/${dir === VALID_DIR ? 'valid' : 'invalid'}/${name}`

/** Issues as sortable `code pointer` strings, so sets compare regardless of order. */
export const issueKeys = (issues: readonly Expected[]) => issues.map((i) => `${i.code} ${i.pointer}`).sort()
