/**
 * The real peers (LeakIX's Python and Go clients, the format owner's Python model), found in
 * `shared/peers` beside an ancestor of the repository (or at L9KIT_PEERS), run unchanged:
 * the Python packages from their folders with the package metadata their imports ask for, the
 * Go `leakix` tool built once per run in GOPATH mode against Debian's Go sources. Tests that use
 * them skip with a message when the folder is absent, and fail under CI=true.
 */
import { createHash } from 'node:crypto'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { ROOT } from '../../corpus/files.js'
import { needs } from '../../languages/support.js'

export const PYTHON = '/usr/bin/python3'

/**
 * The peers folder: L9KIT_PEERS, else the first `shared/peers` in the ancestors of the
 * repository root, or of the repository it was cloned from when that is a local path (a clean
 * clone in a temporary folder, as CI makes one, still finds the peers its origin sits beside).
 */
export function peersDir(): string | undefined {
  const given = process.env.L9KIT_PEERS
  if (given !== undefined && given !== '') return existsSync(given) ? resolve(given) : undefined
  return [ROOT, localOrigin()].map((root) => root && besideAncestor(root)).find((dir) => dir !== undefined)
}

/** The first `shared/peers` in `root` and its ancestors. */
function besideAncestor(root: string): string | undefined {
  for (let dir = root; ; dir = dirname(dir)) {
    const candidate = join(dir, 'shared', 'peers')
    if (existsSync(join(candidate, 'README.md'))) return candidate
    if (dirname(dir) === dir) return undefined
  }
}

/** The `origin` remote of the repository when it is a folder on this machine (a path or a file: URL). */
function localOrigin(): string | undefined {
  const url = spawnSync('git', ['-C', ROOT, 'config', '--get', 'remote.origin.url'], { encoding: 'utf8' }).stdout?.trim() ?? ''
  const path = url.startsWith('file://') ? url.slice('file://'.length) : url
  return path.startsWith('/') && existsSync(path) ? path : undefined
}

export const PEERS = peersDir()

/** `folder (commit)` as the peers' README table gives it: what the test output names. */
export function peerName(folder: string): string {
  const readme = PEERS === undefined ? '' : readFileSync(join(PEERS, 'README.md'), 'utf8')
  const row = readme.split('\n').find((line) => line.startsWith(`| \`${folder}/\``))
  const commit = row?.split('|')[3]?.trim() ?? 'commit unknown'
  return `${folder} @ ${commit}`
}

/** Registers `body` when the peers folder (and `tools`) are there; a skip or, under CI, a failure otherwise. */
export function needsPeers(what: string, folders: string[], tools: { ok: boolean; missing: string }, body: (peers: string) => void): void {
  const missing = PEERS === undefined ? 'the peers folder (../shared/peers or L9KIT_PEERS)' : folders.find((f) => !existsSync(join(PEERS, f)))
  const ok = missing === undefined && tools.ok
  needs(`${what} [${folders.map(peerName).join(', ')}]`, ok, missing ?? tools.missing, () => body(PEERS!))
}

const works = (file: string, args: string[]) => spawnSync(file, args, { encoding: 'utf8' }).status === 0

/** Debian's Python with the modules the client imports. */
export const pythonTools = { ok: works(PYTHON, ['-c', 'import requests, httpx, fire, decouple']), missing: `${PYTHON} with requests, httpx, fire and decouple (Debian python3-requests python3-httpx python3-fire python3-decouple)` }

/**
 * The environment that imports `leakix` and `l9format` from the peers folder: both call
 * importlib.metadata.version() at import, so their package metadata goes in a folder of ours.
 */
export function pythonEnv(peers: string, dir: string): NodeJS.ProcessEnv {
  const meta = join(dir, 'site')
  for (const [name, version] of [['leakix', '1.1.0'], ['l9format', '2.0.1']]) {
    const info = join(meta, `${name}-${version}.dist-info`)
    mkdirSync(info, { recursive: true })
    writeFileSync(join(info, 'METADATA'), `Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\n`)
  }
  const path = [meta, join(peers, 'LeakIXClient-Python'), join(peers, 'l9format-python')].join(':')
  return { ...process.env, PYTHONPATH: path, PYTHONDONTWRITEBYTECODE: '1', PYTHONNOUSERSITE: '1' }
}

const GOCODE = '/usr/share/gocode/src'
const GO_DEPS = ['github.com/gorilla/websocket', 'github.com/PuerkitoBio/goquery', 'github.com/andybalholm/cascadia', 'golang.org/x/net']

export const goTools = {
  ok: works('go', ['version']) && GO_DEPS.every((d) => existsSync(join(GOCODE, d))),
  missing: 'the go command and Debian golang-github-gorilla-websocket-dev, golang-github-puerkitobio-goquery-dev (with cascadia and golang.org/x/net)',
}

/** Every file under `dir`, for the content hash of a build's sources. */
function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : []))
}

/**
 * LeakIX's `leakix` tool (LeakIXClient/cmd/leakix), built in GOPATH mode with no network
 * (GO111MODULE=off GOPROXY=off) from the peers' LeakIXClient and l9format and Debian's sources.
 * Built once per content (a hash of every source file and `go version`) into the system temp
 * folder, so a second run, or a second test file, reuses it.
 */
export function buildLeakixTool(peers: string): string {
  const hash = createHash('sha256')
  hash.update(spawnSync('go', ['version'], { encoding: 'utf8' }).stdout)
  for (const root of [join(peers, 'LeakIXClient'), join(peers, 'l9format'), ...GO_DEPS.map((d) => join(GOCODE, d))]) {
    for (const file of files(root).sort()) hash.update(file).update(readFileSync(file))
  }
  const dir = join(tmpdir(), `l9kit-leakix-tool-${hash.digest('hex').slice(0, 16)}`)
  const binary = join(dir, 'leakix')
  if (existsSync(binary) && statSync(binary).size > 0) return binary
  const gopath = join(dir, 'gopath')
  const link = (target: string, path: string) => {
    mkdirSync(dirname(join(gopath, 'src', path)), { recursive: true })
    if (!existsSync(join(gopath, 'src', path))) symlinkSync(target, join(gopath, 'src', path))
  }
  link(join(peers, 'LeakIXClient'), 'github.com/LeakIX/LeakIXClient')
  link(join(peers, 'l9format'), 'github.com/LeakIX/l9format')
  for (const dep of GO_DEPS) link(join(GOCODE, dep), dep)
  const env = { ...process.env, GOPATH: gopath, GO111MODULE: 'off', GOPROXY: 'off', GOFLAGS: '', GOCACHE: join(dir, 'gocache'), GOTOOLCHAIN: 'local', CGO_ENABLED: '0' }
  const build = spawnSync('go', ['build', '-o', `${binary}.tmp`, 'github.com/LeakIX/LeakIXClient/cmd/leakix'], { cwd: dir, env, encoding: 'utf8', timeout: 600_000 })
  if (build.status !== 0) throw new Error(`go build of LeakIX's leakix tool failed: ${build.stderr}`)
  // Renamed into place only when whole, so a concurrent run never takes a half-written binary.
  spawnSync('mv', ['-f', `${binary}.tmp`, binary])
  return binary
}

export { ROOT }
