/**
 * The memory store's identity table: an event's identity (prepare.ts) → its id, for
 * de-duplication. Identities are long, so only a 30-bit hash of each is kept; a hit is checked
 * exactly against the stored event (`identityAt`).
 */
import { addId, type Ids, removeId } from './columns.js'
import { hash30 } from './strings.js'

export class Identities {
  private readonly byHash = new Map<number, Ids>()
  /** The last identity hashed and its hash: a new event's is looked up, then added. */
  private lastIdentity = ''
  private lastHash = 0

  /** `identityAt(id)`: the identity of stored event `id`, read from its bytes. */
  constructor(private readonly identityAt: (id: number) => string) {}

  /** The stored event with this identity, or -1. */
  find(identity: string): number {
    const ids = this.byHash.get(this.hash(identity))
    if (ids === undefined) return -1 // (most new events: no closure made for them)
    if (typeof ids === 'number') return this.identityAt(ids) === identity ? ids : -1
    for (const id of ids) if (this.identityAt(id) === identity) return id
    return -1
  }

  add(identity: string, id: number): void {
    const hash = this.hash(identity)
    this.byHash.set(hash, addId(this.byHash.get(hash), id))
  }

  remove(identity: string, id: number): void {
    const hash = this.hash(identity)
    const bucket = removeId(this.byHash.get(hash), id)
    if (bucket !== undefined) this.byHash.set(hash, bucket)
    else this.byHash.delete(hash)
  }

  private hash(identity: string): number {
    if (identity !== this.lastIdentity) {
      this.lastHash = hash30(identity)
      this.lastIdentity = identity
    }
    return this.lastHash
  }
}
