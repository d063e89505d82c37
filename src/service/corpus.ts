/**
 * The bundled data of the built-in default: corpus/valid/*.json (one document per file) and the
 * demo events. The corpus is found from this module's own location by walking up to the
 * package root, so it works from src/ (tsx) and from dist/ (bundled) alike.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { demoEvents } from './demo-events.js'
import { ingestText, type IngestReport } from './ingest/feed.js'
import type { Store } from './store/index.js'
import { SERVED_TYPES } from './store/prepare.js'

/** The directory holding l9kit's package.json. */
export function packageRoot(from: string = fileURLToPath(import.meta.url)): string {
  let dir = dirname(from)
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }
      if (pkg.name === 'l9kit') return dir
    } catch {
      // no package.json here: keep walking up
    }
    const parent = dirname(dir)
    if (parent === dir) throw new Error(`cannot find l9kit's package.json above ${from}`)
    dir = parent
  }
}

export const corpusDir = () => join(packageRoot(), 'corpus', 'valid')

/** What loading the bundled data did, per source, for the start-up message. */
export interface BundledReport {
  files: number
  events: number
  /** `file:line: pointer: message` per refused document (none expected). */
  problems: string[]
}

/** Loads corpus/valid/*.json and the demo events into `store`. */
export async function loadBundled(store: Store): Promise<BundledReport> {
  const dir = corpusDir()
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.json')).sort()
  const out: BundledReport = { files: names.length, events: 0, problems: [] }
  const add = (file: string, report: IngestReport) => {
    out.events += report.accepted + report.duplicates
    for (const r of report.rejected) for (const e of r.errors) out.problems.push(`${file}:${r.line}: ${e.pointer || '(document)'}: ${e.message}`)
  }
  for (const name of names) {
    const text = await readFile(join(dir, name))
    // The corpus also shows events the lookups do not serve (a scanner's `synack`); leave them out.
    if (!SERVED_TYPES.includes((JSON.parse(text.toString('utf8')) as { event_type?: string }).event_type ?? '')) continue
    add(join(dir, name), await ingestText(store, text))
  }
  const demo = await store.ingest(demoEvents())
  add('demo-events', { accepted: demo.accepted, duplicates: demo.duplicates, rejected: demo.rejected.map((r) => ({ line: r.index + 1, errors: r.errors })) })
  return out
}

/** Synchronous listing, for tests that compare against the corpus directly. */
export const corpusFiles = (): string[] =>
  readdirSync(corpusDir())
    .filter((n) => n.endsWith('.json'))
    .sort()
    .map((n) => join(corpusDir(), n))
