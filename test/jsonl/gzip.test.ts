import { Readable } from 'node:stream'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { GzipInputError, isGzip, maybeGunzip } from '../../src/jsonl/gzip.js'
import { chunks } from '../support/streams.js'

const text = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ i, pad: `${i}`.repeat(20) })).join('\n') + '\n'

async function read(stream: AsyncIterable<Uint8Array>): Promise<{ text: string; error?: unknown }> {
  const parts: Buffer[] = []
  try {
    for await (const chunk of stream) parts.push(Buffer.from(chunk))
  } catch (error) {
    return { text: Buffer.concat(parts).toString('utf8'), error }
  }
  return { text: Buffer.concat(parts).toString('utf8') }
}

/** `bytes` in chunks of `size`, so the magic bytes and members straddle chunk boundaries. */
async function* split(bytes: Buffer, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size)
}

describe('gzip input', () => {
  it('recognises gzip by its magic bytes only', () => {
    expect(isGzip(gzipSync('x'))).toBe(true)
    expect(isGzip(Buffer.from('{"a":1}'))).toBe(false)
    expect(isGzip(Buffer.from([0x1f, 0x8b]))).toBe(false) // too short to tell: read as text
  })

  it('passes plain input through unchanged, even one byte at a time', async () => {
    expect((await read(maybeGunzip(split(Buffer.from(text.slice(0, 5000)), 1), 'in'))).text).toBe(text.slice(0, 5000))
    expect((await read(maybeGunzip(split(Buffer.from(text), 4096), 'in'))).text).toBe(text)
    expect((await read(maybeGunzip(chunks(), 'in'))).text).toBe('')
  })

  it('decompresses gzip, whatever the chunking', async () => {
    const gz = gzipSync(text)
    for (const size of [1, 2, 7, 4096, gz.length]) expect((await read(maybeGunzip(split(gz, size), 'in'))).text).toBe(text)
  })

  it('reads concatenated members one after another (cat a.gz b.gz)', async () => {
    const gz = Buffer.concat([gzipSync(text), gzipSync('{"last":true}\n')])
    expect((await read(maybeGunzip(split(gz, 1000), 'in'))).text).toBe(`${text}{"last":true}\n`)
  })

  it('a truncated file is an error naming the compressed offset, after everything decoded before it', async () => {
    const gz = gzipSync(text)
    const cut = gz.subarray(0, gz.length - 200)
    const { text: got, error } = await read(maybeGunzip(split(cut, 4096), 'shodan.json.gz'))
    expect(error).toBeInstanceOf(GzipInputError)
    const e = error as GzipInputError
    expect(e.path).toBe('shodan.json.gz')
    expect(e.offset).toBe(cut.length)
    expect(e.message).toMatch(new RegExp(`^truncated gzip data .* at compressed byte ${cut.length} \\(${got.length} bytes decompressed`))
    // What came out is the input's beginning: whole lines except maybe the last.
    expect(text.startsWith(got)).toBe(true)
    expect(got.length).toBeGreaterThan(text.length * 0.9)
  })

  it('a file cut only inside its trailer is read whole, with a warning (no error)', async () => {
    const gz = gzipSync(text)
    for (const cut of [1, 3, 8]) {
      const warnings: string[] = []
      const { text: got, error } = await read(maybeGunzip(split(gz.subarray(0, gz.length - cut), 4096), 'in.gz', (m) => warnings.push(m)))
      expect(error).toBeUndefined()
      expect(got).toBe(text)
      expect(warnings).toEqual([`in.gz: the gzip trailer is cut short (${8 - cut} of its 8 bytes at compressed byte ${gz.length - 8}): all ${text.length} bytes decompressed were read, but their CRC-32 could not be checked`])
    }
    // One byte more cut (the deflate data itself): an error, as before.
    const { error } = await read(maybeGunzip(split(gz.subarray(0, gz.length - 9), 4096), 'in.gz', () => undefined))
    expect(error).toBeInstanceOf(GzipInputError)
  })

  it('a trailer that does not match what was decompressed is an error', async () => {
    const gz = Buffer.from(gzipSync(text))
    gz[gz.length - 5]! ^= 0xff // the CRC-32
    const { error } = await read(maybeGunzip(split(gz, 4096), 'in'))
    expect((error as GzipInputError).message).toMatch(/^damaged gzip data \(its CRC-32 or size does not match/)
  })

  it('reads a header with a file name and comment, and zeros after the last member', async () => {
    const gz = Buffer.from(gzipSync(text))
    const header = Buffer.concat([gz.subarray(0, 3), Buffer.from([8 | 16]), gz.subarray(4, 10), Buffer.from('name.json\0a comment\0')])
    const named = Buffer.concat([header, gz.subarray(10), Buffer.alloc(7)])
    for (const size of [1, 5, 4096]) expect(await read(maybeGunzip(split(named, size), 'in'))).toEqual({ text })
  })

  it('damaged data is an error too', async () => {
    const gz = Buffer.from(gzipSync(text))
    gz[gz.length - 6] = gz[gz.length - 6]! ^ 0xff // the CRC
    const { error } = await read(maybeGunzip(split(gz, 4096), 'in'))
    expect((error as GzipInputError).message).toMatch(/^damaged gzip data \(.*\) at compressed byte \d+/)
  })

  it('destroy() stops a stream being read', async () => {
    const source = Readable.from(split(gzipSync(text), 64))
    const stream = maybeGunzip(source, 'in')
    const iterator = stream[Symbol.asyncIterator]()
    await iterator.next()
    stream.destroy()
    expect(source.destroyed).toBe(true)
  })
})
