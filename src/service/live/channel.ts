/**
 * How new events go from the service's process to the live stream's fan-out process
 * (fanout.ts): a byte stream over a pipe, one record per event: its length (4 bytes, big
 * endian), a flags byte (1 = a leak) and its canonical JSON. The service writes each turn's
 * records as one buffer; the fan-out process cuts the stream back into records.
 */

/** Bytes before each event's JSON. */
const HEAD = 5
const LEAK = 1

/** One event as the fan-out process gets it. */
export interface ChannelEvent {
  bytes: Buffer
  leak: boolean
}

/**
 * A turn's records, for the pipe: each event's bytes are copied in as it comes (a store may
 * reuse them), into one buffer that is handed on whole and not written again.
 */
export class EventRecords {
  private buffer: Buffer | null = null
  private used = 0

  /** Bytes queued. */
  get length(): number {
    return this.used
  }

  add(bytes: Uint8Array, leak: boolean): void {
    const need = this.used + HEAD + bytes.length
    if (this.buffer === null || need > this.buffer.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(need, 2 * (this.buffer?.length ?? 0), 256 * 1024))
      if (this.buffer !== null) this.buffer.copy(grown, 0, 0, this.used)
      this.buffer = grown
    }
    this.buffer.writeUInt32BE(bytes.length, this.used)
    this.buffer[this.used + 4] = leak ? LEAK : 0
    this.buffer.set(bytes, this.used + HEAD)
    this.used = need
  }

  /** The records queued since the last take, as one buffer; the queue starts again empty. */
  take(): Buffer {
    const out = this.buffer === null ? Buffer.alloc(0) : this.buffer.subarray(0, this.used)
    this.buffer = null
    this.used = 0
    return out
  }
}

/** Cuts the pipe's chunks back into events, whatever the chunks' boundaries. */
export class EventDecoder {
  /** The start of a record that the last chunk cut. */
  private partial: Buffer | null = null

  /** The events that `chunk` completes, in order, added to `into`. */
  push(chunk: Buffer, into: ChannelEvent[]): void {
    let at = 0
    // Only the record the last chunk cut is put together: the rest is read where it is.
    while (this.partial !== null) {
      const have = this.partial
      const need = have.length >= HEAD ? HEAD + have.readUInt32BE(0) : HEAD
      if (have.length >= HEAD && have.length === need) {
        into.push(record(have, 0))
        this.partial = null
        break
      }
      if (at === chunk.length) return
      const take = Math.min(need - have.length, chunk.length - at)
      this.partial = Buffer.concat([have, chunk.subarray(at, at + take)])
      at += take
    }
    while (chunk.length - at >= HEAD) {
      const length = chunk.readUInt32BE(at)
      if (chunk.length - at - HEAD < length) break
      into.push(record(chunk, at))
      at += HEAD + length
    }
    if (at < chunk.length) this.partial = chunk.subarray(at)
  }
}

const record = (data: Buffer, at: number): ChannelEvent => ({
  bytes: data.subarray(at + HEAD, at + HEAD + data.readUInt32BE(at)),
  leak: (data[at + 4]! & LEAK) !== 0,
})
