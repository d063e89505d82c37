/**
 * Reading a plain file on the main thread for `--jobs` (src/cli/parallel/read-here.ts): the
 * chunks give the file's bytes exactly, each in memory of its own (so it can be moved to a
 * worker), memory given back is read into again without a trace of what it held, and the
 * stream's descriptor is closed at the end. Anything but an unread file stream is left alone.
 */
import { createReadStream, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { giveBackChunk, readHere } from '../../../src/cli/parallel/read-here.js'
import { CHUNK_BYTES, openSized } from '../../../src/jsonl/input.js'
import { Readable } from 'node:stream'
import { testTempDir } from '../../support/temp.js'

/** A file of 3.5 chunks whose bytes differ from chunk to chunk. */
function file(): { path: string; bytes: Buffer } {
  const bytes = Buffer.alloc(Math.floor(3.5 * CHUNK_BYTES))
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7 + (i >> 20)) & 0xff
  const path = join(testTempDir('l9kit-read-here-'), 'input.bin')
  writeFileSync(path, bytes)
  return { path, bytes }
}

describe('readHere', () => {
  it('gives the bytes of the file, each whole chunk in memory of its own, and closes the file at its end', async () => {
    const { path, bytes } = file()
    const { stream } = await openSized(path, Readable.from([]))
    const chunks: Uint8Array[] = []
    for await (const chunk of readHere(stream)!) chunks.push(chunk)
    expect(Buffer.compare(Buffer.concat(chunks), bytes)).toBe(0)
    expect(chunks.map((c) => c.length)).toEqual([CHUNK_BYTES, CHUNK_BYTES, CHUNK_BYTES, CHUNK_BYTES / 2])
    for (const chunk of chunks.slice(0, 3)) expect([chunk.byteOffset, chunk.buffer.byteLength]).toEqual([0, CHUNK_BYTES])
    expect((stream as Readable).destroyed).toBe(true)
  })

  it('reads into memory given back, and what the memory held before does not show', async () => {
    const { path, bytes } = file()
    const { stream } = await openSized(path, Readable.from([]))
    const chunks: Buffer[] = []
    for await (const chunk of readHere(stream)!) {
      chunks.push(Buffer.from(chunk)) // a copy: the memory itself is given back and read into again
      chunk.fill(0xee)
      giveBackChunk(chunk.buffer as ArrayBuffer) // the last, short chunk's memory is never kept
    }
    expect(Buffer.compare(Buffer.concat(chunks), bytes)).toBe(0)
  })

  it('reuses memory given back', async () => {
    const { path } = file()
    const { stream } = await openSized(path, Readable.from([]))
    const memory = new ArrayBuffer(CHUNK_BYTES)
    giveBackChunk(memory)
    giveBackChunk(new ArrayBuffer(CHUNK_BYTES - 1)) // not a chunk's memory: not kept
    const first = await readHere(stream)![Symbol.asyncIterator]().next()
    expect(first.value.buffer).toBe(memory)
    ;(stream as Readable).destroy()
  })

  it('leaves alone what is not a file stream nothing has read from', async () => {
    const { path } = file()
    expect(readHere(Readable.from([Buffer.from('{}\n')]))).toBeUndefined()
    const read = createReadStream(path)
    await new Promise<void>((resolve) => read.once('readable', () => resolve()))
    read.read(10)
    expect(readHere(read)).toBeUndefined()
    read.destroy()
  })
})
