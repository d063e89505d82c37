/** Opening inputs (files or standard input) and writing JSON Lines in batches. */
import { close, closeSync, createReadStream, fstat, fstatSync, open, openSync, read, readSync, statSync } from 'node:fs'
import type { Readable, Writable } from 'node:stream'
import { promisify } from 'node:util'
import { gunzipStream, isGzip, maybeGunzip, type Warn } from './gzip.js'

/** Read size: large chunks keep the per-chunk overhead negligible (see docs/speed.md). */
export const CHUNK_BYTES = 1 << 20

/**
 * A byte stream for a path, or standard input for `-`. Opening happens now, so a missing
 * file fails here with an error naming the path (ENOENT, EACCES, EISDIR), not mid-stream.
 * gzip-compressed input (told by its first bytes) comes out decompressed (gzip.ts).
 */
export async function openInput(path: string, stdin: Readable | (() => Readable), warn?: Warn): Promise<AsyncIterable<Uint8Array>> {
  return (await openSized(path, stdin, warn)).stream
}

/** An opened input: its bytes, and for a file its size (of the file, compressed or not). */
export interface SizedInput {
  stream: AsyncIterable<Uint8Array>
  size?: number
  /** For a gzip file: how many of its (compressed) bytes have been read, for progress bars. */
  read?: () => number
}

/**
 * Like openInput, with the file's size in bytes (undefined for standard input). `warn` hears
 * what is read with a word of warning (a gzip trailer cut short). `stdin` may be a function
 * giving standard input: it is called only for `-`.
 */
export async function openSized(path: string, stdin: Readable | (() => Readable), warn?: Warn): Promise<SizedInput> {
  if (path === '-') return { stream: maybeGunzip(typeof stdin === 'function' ? stdin() : stdin, inputName(path), warn) }
  const small = readSmallFile(path)
  if (small !== undefined && !isGzip(small.bytes.subarray(0, 3))) return { stream: whole(small.bytes), size: small.size }
  const fd = await promisify(open)(path, 'r')
  const stat = await promisify(fstat)(fd).catch(async (error: unknown) => {
    await promisify(close)(fd)
    throw error
  })
  if (stat.isDirectory()) {
    await promisify(close)(fd)
    throw Object.assign(new Error(`${path}: is a directory`), { code: 'EISDIR', path })
  }
  const file = () => createReadStream(path, { fd, highWaterMark: CHUNK_BYTES, autoClose: true })
  // A pipe or device (`<(…)`, /dev/stdin) cannot be read at a position: its first bytes decide.
  if (!stat.isFile()) return { stream: maybeGunzip(file(), path, warn), size: stat.size }
  const magic = Buffer.alloc(3)
  const { bytesRead } = await promisify(read)(fd, { buffer: magic, position: 0 }).catch(async (error: unknown) => {
    await promisify(close)(fd)
    throw error
  })
  // A plain descriptor, not a FileHandle: a FileHandle's stream reads through promises, at
  // about half the speed. The stream owns the descriptor and closes it at its end.
  const stream = file()
  if (!isGzip(magic.subarray(0, bytesRead))) return { stream, size: stat.size }
  return { stream: gunzipStream(stream, path, warn), size: stat.size, read: () => stream.bytesRead }
}

/**
 * A regular file of at most one chunk (CHUNK_BYTES), read whole now with plain synchronous
 * calls: what its stream would give in one chunk, without loading the file stream's modules or
 * starting libuv's thread pool for a few kilobytes (start-up of a short run, docs/speed.md).
 * Undefined for anything else (larger, not a regular file, an error on the way): the caller
 * then opens it as before, which also reports any error as before.
 */
function readSmallFile(path: string): { bytes: Buffer; size: number } | undefined {
  let fd: number
  try {
    // stat first: opening a FIFO would wait for a writer here, blocking the event loop.
    const stat = statSync(path, { throwIfNoEntry: false })
    if (stat === undefined || !stat.isFile() || stat.size > CHUNK_BYTES) return undefined
    fd = openSync(path, 'r')
  } catch {
    return undefined
  }
  try {
    // The file opened may not be the one looked at (replaced meanwhile): judged again.
    const stat = fstatSync(fd)
    if (!stat.isFile() || stat.size > CHUNK_BYTES) return undefined
    // One byte more than its size: a file that grew meanwhile is read as a stream after all.
    const bytes = Buffer.allocUnsafeSlow(stat.size + 1)
    let length = 0
    for (let n; length < bytes.length && (n = readSync(fd, bytes, length, bytes.length - length, null)) > 0; ) length += n
    return length > stat.size ? undefined : { bytes: bytes.subarray(0, length), size: stat.size }
  } catch {
    return undefined
  } finally {
    closeSync(fd)
  }
}

/** `bytes` as a one-chunk input (none for an empty file, as its stream gives none). */
async function* whole(bytes: Buffer): AsyncGenerator<Uint8Array> {
  if (bytes.length > 0) yield bytes
}

/** Display name of an input in messages. */
export const inputName = (path: string) => (path === '-' ? '<stdin>' : path)

/** Collects lines and writes them in large batches, waiting when the stream is full. */
export class JsonlWriter {
  private parts: string[] = []
  private size = 0

  constructor(
    private readonly stream: Writable,
    private readonly batchChars = 256 * 1024,
  ) {}

  /** Queues one line (a newline is added). Await the result to respect backpressure. */
  write(text: string): Promise<void> | undefined {
    this.parts.push(text, '\n')
    this.size += text.length + 1
    return this.size >= this.batchChars ? this.flush() : undefined
  }

  /**
   * Writes bytes that already hold whole lines, newlines included (a `--jobs` worker's output),
   * after the lines queued before them. Await the result to respect backpressure. `written`
   * is called once the stream is done with the bytes (their memory may then be reused).
   */
  async writeBytes(bytes: Uint8Array, written?: () => void): Promise<void> {
    await this.flush()
    await this.send(bytes, written && ((error) => {
      if (!error) written()
    }))
  }

  async flush(): Promise<void> {
    if (this.size === 0) return
    const data = this.parts.join('')
    this.parts = []
    this.size = 0
    await this.send(data)
  }

  private async send(data: string | Uint8Array, done?: (error: Error | null | undefined) => void): Promise<void> {
    if (!this.stream.write(data, done)) {
      await new Promise<void>((resolve, reject) => {
        const done = (error?: Error) => {
          this.stream.off('drain', done)
          this.stream.off('error', done)
          if (error) reject(error)
          else resolve()
        }
        this.stream.once('drain', done)
        this.stream.once('error', done)
      })
    }
  }
}
