/**
 * Things held at once, per holder (a key, or a client address) and in all: bulk exports, live
 * connections, searches. A slot is taken before the thing starts and given back when it ends;
 * when none is free, the caller answers 429 with the reason (docs/service.md, "Limits").
 */

/** Why no slot was free: the holder has its most, or the service has. */
export type SlotRefusal = 'holder' | 'all'

export class Slots {
  private readonly byHolder = new Map<string, number>()
  private total = 0

  /** `max`: slots in all. */
  constructor(readonly max: number) {}

  /** Slots held now, in all or by `holder`. */
  held(holder?: string): number {
    return holder === undefined ? this.total : (this.byHolder.get(holder) ?? 0)
  }

  /**
   * A slot for `holder`, who may hold at most `perHolder` (undefined: no cap of its own): the
   * function that gives it back (once; later calls do nothing), or why none is free.
   */
  take(holder: string, perHolder?: number): (() => void) | SlotRefusal {
    const mine = this.byHolder.get(holder) ?? 0
    if (perHolder !== undefined && mine >= perHolder) return 'holder'
    if (this.total >= this.max) return 'all'
    this.byHolder.set(holder, mine + 1)
    this.total++
    let given = false
    return () => {
      if (given) return
      given = true
      this.total--
      const left = (this.byHolder.get(holder) ?? 1) - 1
      if (left === 0) this.byHolder.delete(holder)
      else this.byHolder.set(holder, left)
    }
  }
}
