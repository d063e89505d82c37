import { defineConfig } from 'tsup'
import { buildFast } from './scripts/build-fast.js'

/** The package's subpath entries (`l9kit/schema`, …): each is `dist/<name>/index.js` with its `.d.ts`. */
const SUBPATHS = Object.fromEntries(
  ['schema', 'validate', 'normalize', 'fingerprint', 'convert', 'client', 'conformance', 'service'].map((name) => [
    `${name}/index`,
    `src/${name}/index.ts`,
  ]),
)

export default defineConfig({
  // cli/jobs-worker: the worker threads of `--jobs` (src/cli/parallel), found beside cli/main.
  // service/prepare-worker: the worker threads of a large ingest (src/service/ingest/prepare-pool.ts).
  // service/export-worker: the thread that makes a large bulk export's lines (src/service/aggregate/export-thread.ts).
  // service/live-fanout: the live stream's fan-out process (src/service/live/fanout.ts).
  // service/eval-worker: the thread that evaluates searches off the lookups' thread (src/service/search/eval-thread.ts).
  entry: {
    index: 'src/index.ts',
    'cli/main': 'src/cli/main.ts',
    'cli/jobs-worker': 'src/cli/parallel/worker.ts',
    'service/prepare-worker': 'src/service/ingest/prepare-worker.ts',
    'service/export-worker': 'src/service/aggregate/export-worker.ts',
    'service/live-fanout': 'src/service/live/fanout-child.ts',
    'service/eval-worker': 'src/service/search/eval-worker.ts',
    ...SUBPATHS,
  },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  splitting: true,
  sourcemap: false,
  clean: true,
  // One declaration file per public entry, so each subpath of the exports map has its types.
  dts: { entry: { index: 'src/index.ts', ...SUBPATHS } },
  // Then the stream commands' one-file builds with their code caches (dist/fast/).
  onSuccess: () => buildFast('dist'),
})
