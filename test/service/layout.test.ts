/**
 * The one-way dependency rule of src/service (docs/service.md, "Inside"): each folder may import
 * its own layer and the layers below it, never one above. Read from the source's import
 * statements, so a new file or import that breaks the rule fails here, not in review.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { packageRoot } from '../../src/service/index.js'

const SERVICE = join(packageRoot(), 'src', 'service')

/**
 * Layers, lowest first: names/, ratelimit/ and auth/ hold no service logic above them; store/
 * (interfaces, shared preparation, the backends) sits on them; hooks/, ingest/ and web/ use the
 * store (aggregate/ makes a resource's events into an aggregation; live/ fans new events out to
 * stream subscribers; plugins/ names and describes the plugins); search/ evaluates searches on a
 * thread of its own, at the ingest workers' priority (ingest/worker-priority.ts); http/ serves all of them; the files at the top of src/service wire the whole service,
 * except four leaves: package-root.ts, demo-events.ts and worker-source.ts (finding a worker
 * thread's module) use nothing of the service, config-reading.ts (what every part's configuration
 * reader shares, ratelimit/ too) sits below them all, and config.ts (every part's settings, with its
 * readers in config-members.ts) is read by http/.
 */
const LAYER: Record<string, number> = {
  names: 0,
  ratelimit: 0,
  'package-root.ts': 0,
  'demo-events.ts': 0,
  'worker-source.ts': 0,
  'config-reading.ts': -1,
  auth: 1,
  store: 2,
  hooks: 3,
  ingest: 3,
  web: 3,
  aggregate: 3,
  live: 3,
  plugins: 3,
  search: 3.2,
  'config.ts': 3.5,
  'config-members.ts': 3.4,
  http: 4,
  '': 5,
}

/** `store/memory/store.ts` → `store`; a file at the top of src/service → its name when it has a layer of its own, else ''. */
function folderOf(path: string): string {
  if (path.includes('/')) return path.slice(0, path.indexOf('/'))
  const file = path.replace(/\.js$/, '.ts')
  return file in LAYER ? file : ''
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  )
}

/** Every relative import of src/service that leads into another src/service folder, as [from, to]. */
function serviceImports(): [string, string][] {
  const out: [string, string][] = []
  for (const file of sourceFiles(SERVICE)) {
    const text = readFileSync(file, 'utf8')
    for (const m of text.matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)) {
      const target = resolve(dirname(file), m[1]!)
      if (!target.startsWith(SERVICE + '/')) continue
      out.push([relative(SERVICE, file), relative(SERVICE, target)])
    }
  }
  return out
}

describe('src/service layout', () => {
  const imports = serviceImports()

  it('reads the imports (the rule below is checked against real ones)', () => {
    expect(imports.length).toBeGreaterThan(100)
    expect(imports).toContainEqual(['http/lookups.ts', 'http/negotiate.js'])
  })

  it('has every folder in a layer', () => {
    const folders = new Set(imports.flat().map(folderOf))
    for (const folder of folders) expect(LAYER, `folder src/service/${folder}`).toHaveProperty([folder])
  })

  it('imports only downward: no folder reaches one above it, nor a sibling of its layer', () => {
    const broken = imports
      .filter(([from, to]) => {
        const a = folderOf(from)
        const b = folderOf(to)
        return a !== b && LAYER[b]! >= LAYER[a]!
      })
      .map(([from, to]) => `${from} → ${to}`)
    expect(broken).toEqual([])
  })

  it('keeps store/ free of hook logic: matching reaches the outbox through the HookIndexFactory it is given', () => {
    const fromStore = imports.filter(([from, to]) => folderOf(from) === 'store' && folderOf(to) !== 'store').map(([, to]) => folderOf(to))
    expect(new Set(fromStore)).toEqual(new Set(['names', 'package-root.ts', 'config-reading.ts']))
  })

  it('has no file over 300 lines', () => {
    const long = sourceFiles(SERVICE)
      .map((f) => [relative(SERVICE, f), readFileSync(f, 'utf8').split('\n').length - 1] as const)
      .filter(([, lines]) => lines > 300)
    expect(long).toEqual([])
  })
})
