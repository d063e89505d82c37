/**
 * gzip-compressed input (`shodan download` writes `.json.gz`), recognised by its magic bytes,
 * never by the file name, and decompressed as a stream: every command that reads files or
 * standard input gets the plain bytes. Concatenated members (several gzip files joined with
 * `cat`) are read one after the other.
 *
 * Members are read here (RFC 1952: header, deflate data, CRC-32 and size), the deflate data by
 * zlib: so a file cut only inside a member's 8-byte trailer, after its last compressed byte,
 * is told from one cut inside its data. The first gave every byte: it is read, with a warning
 * (the CRC could not be checked). The second, or damaged data, is an error (GzipInputError)
 * naming the compressed byte offset where decoding stopped; it is thrown after every byte
 * decoded before that point has been passed on, so the records before it are kept.
 */
import { createRequire } from 'node:module'
import type { InflateRaw } from 'node:zlib'

// zlib is loaded when a gzip input is met: every command reads through this module, and most
// inputs are plain (start-up is speed: issue 39).
let zlibModule: typeof import('node:zlib') | undefined
const zlib = () => (zlibModule ??= createRequire(import.meta.url)('node:zlib') as typeof import('node:zlib'))

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

/** Said when something was read that is worth a word but not an error (a trailer cut short). */
export type Warn = (message: string) => void

const EMPTY = Buffer.alloc(0)
const asBuffer = (chunk: Uint8Array) => (Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))

// Header flags (RFC 1952 §2.3.1).
const FHCRC = 2
const FEXTRA = 4
const FNAME = 8
const FCOMMENT = 16

/** The compressed input, read as needed: bytes held, and how many were taken before them. */
class Compressed {
  held: Buffer = EMPTY
  /** Compressed bytes before `held`. */
  offset = 0
  ended = false
  constructor(private readonly input: AsyncIterator<Uint8Array>) {}

  /** Reads one more chunk; false at the input's end. */
  async more(): Promise<boolean> {
    if (this.ended) return false
    const next = await this.input.next()
    if (next.done) {
      this.ended = true
      return false
    }
    const chunk = asBuffer(next.value)
    this.held = this.held.length === 0 ? chunk : Buffer.concat([this.held, chunk])
    return true
  }

  /** Holds at least `n` bytes, unless the input ends first. */
  async want(n: number): Promise<boolean> {
    while (this.held.length < n) if (!(await this.more())) return false
    return true
  }

  take(n: number): Buffer {
    const out = this.held.subarray(0, n)
    this.held = this.held.subarray(n)
    this.offset += n
    return out
  }

  /** Puts bytes read past a member's deflate data back in front. */
  unread(bytes: Buffer): void {
    this.held = this.held.length === 0 ? bytes : Buffer.concat([bytes, this.held])
    this.offset -= bytes.length
  }

  /** The next chunk of the input itself (what follows `held`), or undefined at its end. */
  async next(): Promise<Buffer | undefined> {
    if (this.held.length > 0) {
      const out = this.held
      this.take(out.length)
      return out
    }
    if (this.ended) return undefined
    const next = await this.input.next()
    if (next.done) {
      this.ended = true
      return undefined
    }
    const chunk = asBuffer(next.value)
    this.offset += chunk.length
    return chunk
  }
}

/**
 * The length of the member header at the start of `bytes` (RFC 1952 §2.3), 0 when more bytes
 * are needed to tell, -1 when it is not a gzip header.
 */
function headerLength(bytes: Buffer): number {
  if (bytes.length < 10) return 0
  if (!isGzip(bytes)) return -1
  const flags = bytes[3]!
  let at = 10
  if (flags & FEXTRA) {
    if (bytes.length < at + 2) return 0
    at += 2 + bytes.readUInt16LE(at)
  }
  for (const flag of [FNAME, FCOMMENT]) {
    if (!(flags & flag)) continue
    const zero = bytes.indexOf(0, at)
    if (zero === -1) return 0
    at = zero + 1
  }
  if (flags & FHCRC) at += 2
  return bytes.length >= at ? at : 0
}

/** The decompressed bytes of `source`, which is known to start with gzip's magic bytes. */
export function gunzipStream(source: Source, name: string, warn?: Warn): StoppableStream {
  let inflate: InflateRaw | undefined
  let stopped = false
  async function* decoded(): AsyncGenerator<Uint8Array> {
    const input = new Compressed(source[Symbol.asyncIterator]())
    let out = 0
    try {
      for (let member = 0; !stopped; member++) {
        // A member's header, or the input's end (trailing zeros are padding, as gzip reads them).
        let header = 0
        while ((header = headerLength(input.held)) === 0 && (await input.more()));
        if (input.held.length === 0 || (member > 0 && input.held.every((b) => b === 0) && !(await input.more()) && input.held.every((b) => b === 0))) return
        if (header <= 0) {
          const reason = member === 0 ? 'truncated gzip data (the file ends inside its header)' : header === 0 ? 'truncated gzip data (the file ends inside a member header)' : 'damaged gzip data (what follows the last member is not gzip)'
          throw new GzipInputError(name, input.offset, out, reason)
        }
        input.take(header)
        const start = input.offset
        inflate = zlib().createInflateRaw({ chunkSize: OUT_CHUNK })
        let crc = 0
        let size = 0
        const fed = feed(input, inflate)
        try {
          for await (const chunk of inflate as AsyncIterable<Buffer>) {
            crc = zlib().crc32(chunk, crc)
            size += chunk.length
            out += chunk.length
            fed.consumed(inflate.bytesWritten)
            yield chunk
          }
        } catch (error) {
          await fed.stop()
          const zlibError = error as NodeJS.ErrnoException
          if (typeof zlibError.code === 'string' && zlibError.code.startsWith('Z_')) throw new GzipInputError(name, start + inflate.bytesWritten, out, gzipReason(zlibError))
          throw error
        }
        // The deflate data ended: what was read past it goes back in front of the input.
        input.unread(await fed.stop(inflate.bytesWritten))
        if (!(await input.want(8))) {
          if (stopped) return
          // Every compressed byte decoded; only (part of) the trailer is missing.
          warn?.(`${name}: the gzip trailer is cut short (${input.held.length} of its 8 bytes at compressed byte ${input.offset}): all ${out} bytes decompressed were read, but their CRC-32 could not be checked`)
          return
        }
        const trailer = input.take(8)
        if (trailer.readUInt32LE(0) !== crc >>> 0 || trailer.readUInt32LE(4) !== size % 2 ** 32) {
          throw new GzipInputError(name, input.offset - 8, out, 'damaged gzip data (its CRC-32 or size does not match what was decompressed)')
        }
      }
    } finally {
      inflate?.destroy()
      source.destroy?.()
    }
  }
  const stream = decoded() as AsyncGenerator<Uint8Array> & { destroy(): void }
  stream.destroy = () => {
    stopped = true
    source.destroy?.()
    inflate?.destroy()
  }
  return stream
}

/**
 * Writes the input into `inflate`, waiting when it is full, until the deflate data ends
 * (`stop`) or the input does (then ends it, which zlib reports as data cut short). Keeps what
 * it wrote past what zlib consumed, to give it back.
 */
function feed(input: Compressed, inflate: InflateRaw): { consumed(n: number): void; stop(consumed?: number): Promise<Buffer> } {
  const written: Buffer[] = []
  let dropped = 0 // bytes of chunks no longer held (consumed)
  let done = false
  const rest: Buffer[] = []
  const running = (async () => {
    try {
      for (;;) {
        const chunk = await input.next()
        if (chunk === undefined) {
          if (!done) inflate.end()
          return
        }
        if (done || inflate.destroyed) {
          rest.push(chunk)
          return
        }
        written.push(chunk)
        if (!inflate.write(chunk)) {
          await new Promise<void>((resolve) => {
            const go = () => {
              inflate.off('drain', go)
              inflate.off('close', go)
              inflate.off('end', go)
              resolve()
            }
            inflate.once('drain', go)
            inflate.once('close', go)
            inflate.once('end', go)
          })
        }
        if (done) return
      }
    } catch (error) {
      inflate.destroy(error as Error)
    }
  })()
  return {
    consumed(n) {
      while (written.length > 0 && dropped + written[0]!.length <= n) dropped += written.shift()!.length
    },
    async stop(consumed) {
      done = true
      await running
      if (consumed === undefined) return EMPTY
      const tail = Buffer.concat(written)
      return Buffer.concat([tail.subarray(Math.max(0, consumed - dropped)), ...rest])
    },
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
export function maybeGunzip(source: Source, name: string, warn?: Warn): StoppableStream {
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
    inner = gunzipStream(whole, name, warn)
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
