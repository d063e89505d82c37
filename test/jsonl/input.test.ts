/**
 * Opening inputs (src/jsonl/input.ts): a regular file of at most one chunk is read whole at
 * once, without a file stream (start-up, docs/speed.md). It must give what the file's stream
 * gives, chunk for chunk, and fail as opening it did; standard input is asked for only for `-`.
 */
import { createReadStream, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { gzipSync } from 'node:zlib'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CHUNK_BYTES, openSized } from '../../src/jsonl/input.js'
import { fileTempDir } from '../support/temp.js'

const dir = fileTempDir('l9kit-input-')
let files = 0

function fileOf(bytes: Uint8Array): string {
  const path = join(dir, `input-${files++}.bin`)
  writeFileSync(path, bytes)
  return path
}

async function chunksOf(stream: AsyncIterable<Uint8Array>): Promise<Buffer[]> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.from(chunk))
  return chunks
}

/** What the file's own stream gives (as openSized read every file before). */
const streamed = (path: string) => chunksOf(createReadStream(path, { highWaterMark: CHUNK_BYTES }))

const noStdin = () => {
  throw new Error('standard input asked for')
}

describe('openSized', () => {
  it('gives a small file chunk for chunk as its stream does, with its size, never asking for standard input', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 4096 }), async (bytes) => {
        if (bytes[0] === 0x1f) return // a gzip magic's first byte: see the gzip case
        const path = fileOf(bytes)
        const opened = await openSized(path, noStdin)
        expect(opened.size).toBe(bytes.length)
        expect(await chunksOf(opened.stream)).toEqual(await streamed(path))
      }),
      { numRuns: 40 },
    )
  })

  it.each([0, 1, CHUNK_BYTES - 1, CHUNK_BYTES, CHUNK_BYTES + 1, 2 * CHUNK_BYTES + 5])('a file of %i bytes: the same chunks as its stream', async (length) => {
    const bytes = Buffer.alloc(length)
    for (let i = 0; i < length; i++) bytes[i] = (i * 13 + 7) & 0xff
    bytes[0] = 0x7b // not gzip
    const path = fileOf(bytes.subarray(0, length))
    const opened = await openSized(path, noStdin)
    expect(opened.size).toBe(length)
    const chunks = await chunksOf(opened.stream)
    expect(chunks.map((c) => c.length)).toEqual((await streamed(path)).map((c) => c.length))
    expect(Buffer.compare(Buffer.concat(chunks), bytes.subarray(0, length))).toBe(0)
  })

  it('a small gzip file comes out decompressed', async () => {
    const text = '{"port":80}\n{"port":443}\n'
    const opened = await openSized(fileOf(gzipSync(text)), noStdin)
    expect(Buffer.concat(await chunksOf(opened.stream)).toString('utf8')).toBe(text)
  })

  it('fails as opening did: a missing file (ENOENT with its path), a directory (EISDIR)', async () => {
    const missing = join(dir, 'missing.json')
    await expect(openSized(missing, noStdin)).rejects.toMatchObject({ code: 'ENOENT', path: missing })
    const folder = join(dir, 'folder')
    mkdirSync(folder)
    await expect(openSized(folder, noStdin)).rejects.toMatchObject({ code: 'EISDIR', path: folder })
  })

  it('`-` reads standard input, given or asked for', async () => {
    const given = await openSized('-', Readable.from([Buffer.from('{"a":1}\n')]))
    expect(Buffer.concat(await chunksOf(given.stream)).toString()).toBe('{"a":1}\n')
    const asked = await openSized('-', () => Readable.from([Buffer.from('{"b":2}\n')]))
    expect(Buffer.concat(await chunksOf(asked.stream)).toString()).toBe('{"b":2}\n')
  })
})
