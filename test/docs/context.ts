/**
 * What the doc runner gives the docs: a folder laid out as a clone (links to the repository's
 * files), `l9kit` on the PATH, a project with l9kit installed for ts and js blocks, one
 * service for every doc (started as `l9kit serve` is), and the placeholders' values.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chmodSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import type { DocContext } from './runner.js'

/** The placeholders of the docs and their working values (the demo keys of `l9kit serve`). */
export const PLACEHOLDERS = {
  KEY: 'l9kit-demo-pro',
  PRO: 'l9kit-demo-pro',
  ADMIN: 'l9kit-demo-admin',
  WHSEC: `whsec_${randomBytes(32).toString('base64')}`,
}

/** A port nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/**
 * What the docs' commands read from a clone, linked: the data folders only. Never package.json
 * or node_modules: a block that ran `npm ci` there (before it was marked) emptied the
 * repository's node_modules through the link.
 */
const READ_BY_DOCS = ['corpus', 'schema', 'docs', 'migrations', 'README.md', 'CHANGELOG.md']

/** A folder holding links to the repository's data folders, where the docs' relative paths resolve. */
export function cloneLike(root: string, dir: string): void {
  mkdirSync(dir, { recursive: true })
  for (const name of readdirSync(root)) if (READ_BY_DOCS.includes(name)) symlinkSync(join(root, name), join(dir, name))
}

/** A bin folder holding `l9kit`: the repository's built CLI. */
export function binWithL9kit(root: string, dir: string): string {
  mkdirSync(dir, { recursive: true })
  const file = join(dir, 'l9kit')
  writeFileSync(file, `#!/bin/sh\nexec "${process.execPath}" "${join(root, 'dist', 'cli', 'main.js')}" "$@"\n`)
  chmodSync(file, 0o755)
  return dir
}

/** A project (ESM) where `l9kit` is installed, as `npm install` of the package leaves it (here a link). */
export function projectWithL9kit(root: string, dir: string): string {
  mkdirSync(join(dir, 'node_modules'), { recursive: true })
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'doc-blocks', private: true, type: 'module' }))
  symlinkSync(root, join(dir, 'node_modules', 'l9kit'))
  return dir
}

/** The environment blocks run in: PATH first through `bin`, the placeholders set, no l9kit settings inherited. */
export function docEnv(bin: string | undefined, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base, ...PLACEHOLDERS, NO_COLOR: '1', npm_config_update_notifier: 'false' }
  for (const name of Object.keys(env)) if (name.startsWith('L9KIT_')) delete env[name]
  if (bin) env.PATH = `${bin}:${base.PATH ?? ''}`
  return env
}

/** Starts `command args` and resolves with its process and port once it prints `listening on …`. */
export function startService(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; port: number; output: () => string }> {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  let text = ''
  return new Promise((resolve, reject) => {
    const look = (b: Buffer) => {
      text += b.toString()
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(text)
      if (m) resolve({ child, port: Number(m[1]), output: () => text })
    }
    child.stdout!.on('data', look)
    child.stderr!.on('data', look)
    child.once('exit', () => reject(new Error(`${command} ${args.join(' ')} exited before listening:\n${text}`)))
  })
}

/** Stops a process started by startService (and its group). */
export function stopService(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', () => resolve())
    try {
      process.kill(-child.pid!, 'SIGTERM')
    } catch {
      resolve()
    }
  })
}

/** Everything a doc runs against, in `dir`, with the service on `port`. */
export async function docContext(root: string, dir: string, port: number, bin: string | undefined): Promise<DocContext> {
  const cwd = join(dir, 'clone')
  cloneLike(root, cwd)
  return {
    root,
    cwd,
    project: projectWithL9kit(root, join(dir, 'project')),
    // The hooks commands' default --base-url is the service the docs start (npm start: 8080).
    env: { ...docEnv(bin), L9KIT_BASE_URL: `http://127.0.0.1:${port}` },
    port,
    listenPort: await freePort(),
  }
}
