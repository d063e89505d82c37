/**
 * Temporary folders for tests, removed again: inside a test when that test finishes, at
 * module level when the file's tests are done. Nothing is left in the system temp folder.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, onTestFinished } from 'vitest'

const remove = (dir: string) => rmSync(dir, { recursive: true, force: true })

/** A new folder `<tmp>/<prefix>XXXXXX`, removed when the current test finishes. */
export function testTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  onTestFinished(() => remove(dir))
  return dir
}

/** A new folder `<tmp>/<prefix>XXXXXX` for a whole test file (call at module level), removed after all its tests. */
export function fileTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  afterAll(() => remove(dir))
  return dir
}
