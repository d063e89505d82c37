/**
 * gzip-compressed input (`shodan download` writes `.json.gz`), recognised by its magic bytes,
 * never by the file name, and decompressed as a stream: every command that reads files or
 * standard input gets the plain bytes. Concatenated members (several gzip files joined with
 * `cat`) are read one after the other.
 *
 * A file cut short or damaged is an error (GzipInputError) naming the compressed byte offset
 * where decoding stopped; it is thrown after every byte decoded before that point has been
 * passed on, so the records before it are kept.
 */
import { createGunzip, type Gunzip } from 'node:zlib'

/** gzip's magic number and the deflate method byte (RFC 1952 §2.3.1). */
export const isGzip = (bytes: Uint8Array) => bytes.length >= 3 && bytes[0] === 0x1f && bytes[1] === 0x8b && bytes[2] === 0x08

/** Decompressed chunks are this large: few chunks per megabyte, as for plain files. */
const OUT_CHUNK = 256 * 1024

/** A gzip input that cannot be read to its end: the code the CLI reports as an I/O error (exit 2). */
export class GzipInputError extends Error {
  override name = 'GzipInputError'
  readonly code = 'EGZIP'
  constructor(
    /** The input's name (a path, or `<stdin>`). */
    readonly path: string,
    /** Compressed bytes decoded before the fault. */
    readonly offset: number,
    /** Decompressed bytes passed on before the fault. */
    readonly decoded: number,
    reason: string,
  ) {
    super(`${reason} at compressed byte ${offset} (${decoded} bytes decompressed before it; the records before it were read)`)
  }
}

/** A byte stream that can be stopped early (Ctrl-C), as file streams can. */
export type StoppableStream = AsyncIterable<Uint8Array> & { destroy(): void }

/** What is read from: a file stream, standard input, or any byte iterable. */
type Source = AsyncIterable<Uint8Array> & { destroy?: () => unknown }

/** The decompressed bytes of `source`, which is known to start with gzip's magic bytes. */
export function gunzipStream(source: Source, name: string): StoppableStream {
  const gunzip = createGunzip({ chunkSize: OUT_CHUNK })
  async function* decoded(): AsyncGenerator<Uint8Array> {
    let out = 0
    // Fed by hand rather than piped: a read error of the source must reach the reader too.
    const feeding = feed(source, gunzip)
    try {
      for await (const chunk of gunzip as AsyncIterable<Buffer>) {
        out += chunk.length
        yield chunk
      }
    } catch (error) {
      const zlibError = error as NodeJS.ErrnoException
      if (typeof zlibError.code === 'string' && zlibError.code.startsWith('Z_')) throw new GzipInputError(name, gunzip.bytesWritten, out, gzipReason(zlibError))
      throw error
    } finally {
      source.destroy?.()
      await feeding.catch(() => undefined)
    }
  }
  const stream = decoded() as AsyncGenerator<Uint8Array> & { destroy(): void }
  stream.destroy = () => {
    source.destroy?.()
    gunzip.destroy()
  }
  return stream
}

/** Writes `source` into `gunzip`, waiting when it is full, and ends it (or fails it). */
async function feed(source: AsyncIterable<Uint8Array>, gunzip: Gunzip): Promise<void> {
  try {
    for await (const chunk of source) {
      if (gunzip.destroyed) return
      if (!gunzip.write(chunk)) await new Promise<void>((resolve) => {
        const done = () => {
          gunzip.off('drain', done)
          gunzip.off('close', done)
          resolve()
        }
        gunzip.once('drain', done)
        gunzip.once('close', done)
      })
    }
    gunzip.end()
  } catch (error) {
    gunzip.destroy(error as Error)
  }
}

/** zlib's message in words: a cut-off file is the common case. */
function gzipReason(error: NodeJS.ErrnoException): string {
  if (error.code === 'Z_BUF_ERROR') return 'truncated gzip data (the file ends inside a compressed member)'
  return `damaged gzip data (${error.message})`
}

/**
 * `source` as plain bytes: unchanged when it does not start with gzip's magic bytes,
 * decompressed when it does. Only the first bytes are looked at; nothing is read twice.
 */
export function maybeGunzip(source: Source, name: string): StoppableStream {
  let inner: StoppableStream | undefined
  async function* sniffed(): AsyncGenerator<Uint8Array> {
    const iterator = source[Symbol.asyncIterator]()
    // The first chunks, until there are enough bytes to tell (or the input ends).
    let first = Buffer.alloc(0)
    let ended = false
    while (first.length < 3 && !ended) {
      const next = await iterator.next()
      if (next.done) ended = true
      else first = Buffer.concat([first, next.value])
    }
    const whole: Source = { [Symbol.asyncIterator]: () => prepended(first, ended ? undefined : iterator), destroy: () => source.destroy?.() }
    if (!isGzip(first)) return yield* whole
    inner = gunzipStream(whole, name)
    yield* inner
  }
  const stream = sniffed() as AsyncGenerator<Uint8Array> & { destroy(): void }
  stream.destroy = () => (inner ? inner.destroy() : source.destroy?.())
  return stream
}

/** `head`, then what `rest` still yields. */
async function* prepended(head: Buffer, rest: AsyncIterator<Uint8Array> | undefined): AsyncGenerator<Uint8Array> {
  if (head.length > 0) yield head
  if (!rest) return
  for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value
}
