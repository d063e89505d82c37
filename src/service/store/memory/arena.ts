/**
 * Event bytes packed into large slabs: each stored event is its canonical JSON as UTF-8 at
 * (slab, offset, length). Memory is the bytes themselves plus 12 bytes of address per event,
 * with no object per event for the garbage collector to trace; an answer is a few memcpys.
 * Replaced bytes (a duplicate with a later time) are counted as waste and reclaimed by
 * compact(), which copies the live bytes into fresh slabs.
 */
import { Column } from './columns.js'

const SLAB_BYTES = 4 * 1024 * 1024
/** Events needing more room than this get a slab of their own (slabs are not left half empty). */
const OWN_SLAB = SLAB_BYTES / 4

export class ByteArena {
  private slabs: Buffer[] = []
  /** Index of the slab being filled, and how much of it is used. */
  private current = -1
  private used = 0
  private readonly slab = new Column((n) => new Int32Array(n))
  private readonly offset = new Column((n) => new Int32Array(n))
  private readonly length = new Column((n) => new Int32Array(n))
  /** Bytes held by replaced versions (reclaimed by compact()). */
  wasted = 0
  /** Bytes of the live versions. */
  live = 0
  /** Slab number of each buffer taken over as it is (keep()). */
  private kept = new WeakMap<ArrayBufferLike, number>()

  /**
   * Stores an event as the bytes of entry `id` (`replacing` when `id` already had some):
   * its UTF-8 bytes when the caller has them (a copy, no encoding), else its text.
   */
  set(id: number, text: string, replacing = false, utf8?: Uint8Array): void {
    if (utf8 !== undefined) {
      const big = utf8.length > OWN_SLAB
      this.place(id, utf8.length, replacing).set(utf8, this.offset.data[id]!)
      return this.settle(id, utf8.length, big)
    }
    // UTF-8 never needs more than 3 bytes per UTF-16 code unit.
    const room = text.length * 3
    const big = room > OWN_SLAB
    const target = this.place(id, big ? Buffer.byteLength(text) : room, replacing)
    const written = target.write(text, this.offset.data[id]!, 'utf8')
    this.settle(id, written, big)
  }

  /**
   * Stores an event as the bytes of entry `id` by keeping `bytes` where they are, with no copy:
   * their whole buffer becomes a slab, which the caller must never write again. The buffer's
   * bytes that no entry uses count as waste, so compact() reclaims them once they add up.
   */
  keep(id: number, bytes: Uint8Array, replacing = false): void {
    let slab = this.kept.get(bytes.buffer)
    if (slab === undefined) {
      slab = this.slabs.push(Buffer.from(bytes.buffer)) - 1
      this.kept.set(bytes.buffer, slab)
      this.wasted += bytes.buffer.byteLength
    }
    this.entry(id, replacing)
    this.slab.data[id] = slab
    this.offset.data[id] = bytes.byteOffset
    this.wasted -= bytes.length
    this.settle(id, bytes.length, true)
  }

  /** The bytes of entry `id` (a view, not a copy). */
  bytes(id: number): Buffer {
    const offset = this.offset.data[id]!
    return this.slabs[this.slab.data[id]!]!.subarray(offset, offset + this.length.data[id]!)
  }

  /** How many bytes entry `id` has. */
  size(id: number): number {
    return this.length.data[id]!
  }

  /** The text of entry `id`. */
  text(id: number): string {
    const offset = this.offset.data[id]!
    return this.slabs[this.slab.data[id]!]!.toString('utf8', offset, offset + this.length.data[id]!)
  }

  /** Copies the live bytes of entries 0…count-1 into fresh slabs, dropping the waste. */
  compact(count: number): void {
    const old = { slabs: this.slabs, slab: this.slab.data.slice(0, count), offset: this.offset.data.slice(0, count), length: this.length.data.slice(0, count) }
    this.slabs = []
    this.kept = new WeakMap()
    this.current = -1
    this.used = 0
    this.live = 0
    this.wasted = 0
    for (let id = 0; id < count; id++) {
      const from = old.offset[id]!
      this.set(id, '', false, old.slabs[old.slab[id]!]!.subarray(from, from + old.length[id]!))
    }
  }

  /** Forgets entry `id`'s bytes (a deleted event): they become waste, reclaimed by compact(). */
  drop(id: number): void {
    this.wasted += this.length.data[id]!
    this.live -= this.length.data[id]!
    this.length.data[id] = 0
  }

  /** Bytes allocated in slabs (live, waste and unused tails). */
  get capacity(): number {
    let n = 0
    for (const s of this.slabs) n += s.length
    return n
  }

  /** Makes room for entry `id` in the index; the bytes it held (`replacing`) become waste. */
  private entry(id: number, replacing: boolean): void {
    if (replacing) {
      this.wasted += this.length.data[id]!
      this.live -= this.length.data[id]!
    }
    this.slab.ensure(id)
    this.offset.ensure(id)
    this.length.ensure(id)
  }

  /** Chooses where entry `id`'s next bytes go (at most `room` of them) and records it. */
  private place(id: number, room: number, replacing: boolean): Buffer {
    this.entry(id, replacing)
    if (room > OWN_SLAB) {
      this.slabs.push(Buffer.allocUnsafeSlow(room))
      this.slab.data[id] = this.slabs.length - 1
      this.offset.data[id] = 0
      return this.slabs[this.slabs.length - 1]!
    }
    if (this.current === -1 || this.used + room > SLAB_BYTES) {
      this.slabs.push(Buffer.allocUnsafeSlow(SLAB_BYTES))
      this.current = this.slabs.length - 1
      this.used = 0
    }
    this.slab.data[id] = this.current
    this.offset.data[id] = this.used
    return this.slabs[this.current]!
  }

  private settle(id: number, written: number, big: boolean): void {
    this.length.data[id] = written
    if (!big) this.used += written
    this.live += written
  }
}
