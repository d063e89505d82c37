/**
 * Checks of file options made before a command's work starts, failing as the program words
 * every I/O error (`l9kit CMD: PATH: is a directory`, exit 2): an option read later (a
 * configuration) or written at the end of a long run (a report) is judged at once.
 */
import { constants } from 'node:fs'
import { access, stat } from 'node:fs/promises'
import { dirname } from 'node:path'

const fail = (path: string, code: string): never => {
  throw Object.assign(new Error(`${path}: ${code}`), { code, path })
}

/** Throws ENOENT, EACCES or EISDIR (with `path`) unless `path` is a file that can be read. */
export async function readableFile(path: string): Promise<void> {
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => fail(path, error.code ?? 'ENOENT'))
  if (info.isDirectory()) fail(path, 'EISDIR')
  await access(path, constants.R_OK).catch(() => fail(path, 'EACCES'))
}

/**
 * Throws ENOENT, EACCES or EISDIR (with `path`) unless `path` can be written: an existing
 * file that is writable, or a new name in a writable folder. Nothing is created.
 */
export async function writableFile(path: string): Promise<void> {
  const info = await stat(path).catch(() => undefined)
  if (info?.isDirectory()) fail(path, 'EISDIR')
  if (info) {
    await access(path, constants.W_OK).catch(() => fail(path, 'EACCES'))
    return
  }
  const folder = await stat(dirname(path)).catch(() => fail(path, 'ENOENT'))
  if (!folder.isDirectory()) fail(path, 'ENOTDIR')
  await access(dirname(path), constants.W_OK | constants.X_OK).catch(() => fail(path, 'EACCES'))
}
