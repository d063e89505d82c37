/**
 * The Go program of test/interop/go (the original's types, decoded and written again by a
 * default json.NewEncoder), built offline into a test's temp folder and run over JSON Lines.
 * Shared by go-bytes.test.ts and go-protocols.test.ts.
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { expect } from 'vitest'

export const haveGo = spawnSync('go', ['version'], { encoding: 'utf8' }).status === 0

/**
 * Builds the Go program of test/interop/`folder` into `dir` as `name` (caches there too, removed
 * with it); returns the binary's path. Every interop program is built this way.
 */
export function buildGoProgram(folder: string, dir: string, name: string): string {
  const program = join(dir, name)
  // Debian's Go ships its standard library built, and go.mod replaces point at local folders:
  // no module download, no network.
  const env = { ...process.env, GOFLAGS: '-mod=mod', GOPROXY: 'off', GOCACHE: join(dir, 'gocache'), GOPATH: join(dir, 'gopath'), GOTOOLCHAIN: 'local', CGO_ENABLED: '0' }
  const build = spawnSync('go', ['build', '-o', program, '.'], { cwd: join(import.meta.dirname, folder), env, encoding: 'utf8', timeout: 300_000 })
  if (build.status !== 0) throw new Error(`go build failed: ${build.stderr}`)
  return program
}

/** Builds the program of test/interop/go into `dir`; returns the binary's path. */
export const buildOriginalGo = (dir: string): string => buildGoProgram('go', dir, 'gobytes')

export const lines = (text: string) => (text === '' ? [] : text.replace(/\n$/, '').split('\n'))

/** Runs the built program on `input`; its output lines (without the final newline). Every line must decode. */
export function goReencode(program: string, input: Buffer | string): string[] {
  const run = spawnSync(program, [], { input, maxBuffer: 256 << 20, encoding: 'utf8', timeout: 120_000 })
  expect(run.stderr).toBe('')
  expect(run.status).toBe(0)
  return lines(run.stdout)
}
