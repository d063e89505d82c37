/**
 * The memory store's identity table: an event's identity (prepare.ts) → its id, for
 * de-duplication. Identities are long, so only a 30-bit hash of each is kept; a hit is checked
 * exactly against the stored event (`identityAt`).
 */
import { addId, forEachId, type Ids, removeId } from './columns.js'
import { hash30 } from './strings.js'

export class Identities {
  private readonly byHash = new Map<number, Ids>()

  /** `identityAt(id)`: the identity of stored event `id`, read from its bytes. */
  constructor(private readonly identityAt: (id: number) => string) {}

  /** The stored event with this identity, or -1. */
  find(identity: string): number {
    let found = -1
    forEachId(this.byHash.get(hash30(identity)), (id) => {
      if (found === -1 && this.identityAt(id) === identity) found = id
    })
    return found
  }

  add(identity: string, id: number): void {
    const hash = hash30(identity)
    this.byHash.set(hash, addId(this.byHash.get(hash), id))
  }

  remove(identity: string, id: number): void {
    const hash = hash30(identity)
    const bucket = removeId(this.byHash.get(hash), id)
    if (bucket !== undefined) this.byHash.set(hash, bucket)
    else this.byHash.delete(hash)
  }
}
