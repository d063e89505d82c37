/**
 * Writes the V8 code cache of each one-file stream command (dist/fast/<name>.cjs.v8cache, and
 * of each validator file they load), as the build's last step: `node dist/fast/code-cache.cjs`.
 * Each command first runs on small sample input (the corpus's events, an httpx line), so the
 * cache holds the functions a short run compiles, not only the top level. The cache fits the
 * node binary that made it only; any other node rejects it and compiles (cached-script.ts).
 *
 * `--check` loads the commands with their caches, runs the same samples, and lists any script
 * whose cache is missing or was rejected (exit 1): what a test asks of a fresh build.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable, Writable } from 'node:stream'
import type { Io } from '../command.js'
import { loadedScripts, requireCached, withChecksums } from './cached-script.js'
import { CACHE_SUFFIX, FAST_COMMANDS } from './commands.js'
import type { FastEntry } from './entry.js'

const here = __dirname
const check = process.argv.includes('--check')
// The corpus of the tree built: `--corpus DIR` (a build into another folder, as the bench's), else beside dist/.
const corpusAt = process.argv.indexOf('--corpus')
const corpus = corpusAt > 0 ? process.argv[corpusAt + 1]! : join(here, '..', '..', 'corpus')
const events = ['service-https-nginx-ipv4.json', 'service-protocols-every-object.json'].map((name) =>
  JSON.stringify(JSON.parse(readFileSync(join(corpus, 'valid', name), 'utf8'))),
)
const dir = mkdtempSync(join(tmpdir(), 'l9kit-code-cache-'))
const one = join(dir, 'one.json')
const two = join(dir, 'two.jsonl')
const httpx = join(dir, 'one.httpx.jsonl')
writeFileSync(one, `${events[0]}\n`)
writeFileSync(two, `${events.join('\n')}\n`)
writeFileSync(httpx, '{"timestamp":"2024-09-23T12:03:07+02:00","port":"443","url":"https://a.example.com","host":"a.example.com","host_ip":"192.0.2.1","scheme":"https","status_code":200}\n')

/** What each command runs on before its cache is written. */
const SAMPLES: Record<(typeof FAST_COMMANDS)[number], string[][]> = {
  validate: [[one], [two], ['--profile', 'lenient', one]],
  normalize: [[one], [two]],
  fingerprint: [[one]],
  filter: [['port:443', one], ['port:443', two]],
  convert: [['--from', 'httpx', httpx]],
}

const sink = () => new Writable({ write: (_chunk, _encoding, done) => done() })

async function run(): Promise<void> {
  for (const name of FAST_COMMANDS) {
    const command = requireCached(join(here, `${name}.cjs`), check) as FastEntry
    for (const args of SAMPLES[name]) {
      const io: Io = { stdin: Readable.from([]), stdout: sink(), stderr: sink(), stderrIsTTY: false, env: {}, ownsProcess: false }
      const code = await command.main([name, ...args], io)
      if (code !== 0) throw new Error(`l9kit ${name} ${args.join(' ')}: exit ${code} on its sample input`)
    }
  }
  if (check) {
    const bad = [...loadedScripts].filter(([, { script }]) => script.cachedDataRejected !== false).map(([file, { script }]) => `${file}: ${script.cachedDataRejected === undefined ? 'no cache' : 'cache rejected'}`)
    if (bad.length > 0) {
      process.stderr.write(`${bad.join('\n')}\n`)
      process.exitCode = 1
    } else process.stdout.write(`${loadedScripts.size} scripts, each cache accepted\n`)
  } else {
    for (const [file, { script }] of loadedScripts) writeFileSync(file + CACHE_SUFFIX, withChecksums(() => script.createCachedData()))
  }
}

// CommonJS (the build's format here) has no top-level await.
run()
  .catch((error: unknown) => {
    process.stderr.write(`code-cache: ${error instanceof Error ? error.stack : String(error)}\n`)
    process.exitCode = 1
  })
  .finally(() => rmSync(dir, { recursive: true, force: true }))
