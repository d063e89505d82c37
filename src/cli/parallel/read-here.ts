/**
 * A plain file read on the main thread itself for `--jobs`. A file stream reads each chunk on
 * libuv's thread pool, and its result is taken on the main thread only between two blocks it
 * runs: with every core busy, the next chunk was late each time, and the main thread waited
 * for reads (~65 ms of a 100 MB `normalize --jobs 2`, with nothing left to run). A read from
 * the page cache takes a fraction of a millisecond, so reading here, when the next block is
 * wanted, costs less than that wait. The single-threaded path keeps the stream: there the
 * thread pool reads on an idle core.
 *
 * Chunks are read into memory given back once their block is done (giveBackChunk): reading
 * into new memory took three times as long (100 MB: ~55 ms against ~16 ms), each page being
 * faulted in and zeroed by the kernel first.
 */
import { ReadStream, readSync } from 'node:fs'
import { CHUNK_BYTES } from '../../jsonl/input.js'

/** Chunk memory whose block is done, to read into again. */
const spares: ArrayBuffer[] = []
/** Chunks kept, at most (the blocks read ahead and in hand are fewer). */
const MAX_SPARES = 12

/**
 * Keeps `memory`, a chunk's whole memory whose block is done (run here, or moved back from a
 * worker), to read into again. Anything else (a copied piece, a moved-away view's empty
 * memory) is left alone.
 */
export function giveBackChunk(memory: ArrayBuffer): void {
  if (memory.byteLength === CHUNK_BYTES && spares.length < MAX_SPARES) spares.push(memory)
}

/**
 * Memory for at least `size` bytes of a block's input: a kept chunk's when it fits (it comes
 * back with giveBackChunk once the block is done), else new memory of a chunk's size (or
 * larger, for a block holding a long line).
 */
export function chunkMemory(size: number): Buffer {
  const spare = size <= CHUNK_BYTES ? spares.pop() : undefined
  return spare ? Buffer.from(spare) : Buffer.allocUnsafeSlow(Math.max(size, CHUNK_BYTES))
}

/**
 * The chunks of `input` read synchronously, when it is a file stream nothing has read from
 * yet (a file opened by openSized that is not gzip); else undefined. The stream still owns
 * its descriptor: it is destroyed (and the descriptor closed) when reading ends.
 */
export function readHere(input: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> | undefined {
  if (!(input instanceof ReadStream) || input.readableDidRead || input.destroyed) return undefined
  const fd = (input as ReadStream & { fd?: unknown }).fd
  return typeof fd === 'number' ? chunks(input, fd) : undefined
}

async function* chunks(stream: ReadStream, fd: number): AsyncGenerator<Uint8Array> {
  try {
    // Destroyed meanwhile (convert's Ctrl-C): the input ends here, as the stream would.
    while (!stream.destroyed) {
      // Memory of its own per chunk: it is moved to a worker with its block (blocks.ts).
      const spare = spares.pop()
      const chunk = spare ? Buffer.from(spare) : Buffer.allocUnsafeSlow(CHUNK_BYTES)
      const n = readSync(fd, chunk, 0, CHUNK_BYTES, null) // from where the stream would read
      if (n === 0) return
      yield n === CHUNK_BYTES ? chunk : chunk.subarray(0, n)
    }
  } finally {
    stream.destroy()
  }
}
