/** Growable typed columns: one slot per stored event, a few bytes each instead of an object. */

type Typed = Float64Array | Int32Array | Uint8Array

export class Column<T extends Typed> {
  data: T
  constructor(private readonly make: (length: number) => T) {
    this.data = make(1024)
  }

  /** Makes room for index `i`. */
  ensure(i: number): void {
    if (i < this.data.length) return
    let length = this.data.length * 2
    while (length <= i) length *= 2
    const next = this.make(length)
    next.set(this.data as never)
    this.data = next
  }
}

/** A bucket of event ids: a bare number while it holds one (most do), an array beyond. */
export type Ids = number | number[]

export function addId(ids: Ids | undefined, id: number): Ids {
  if (ids === undefined) return id
  if (typeof ids === 'number') return [ids, id]
  ids.push(id)
  return ids
}

export function forEachId(ids: Ids | undefined, fn: (id: number) => void): void {
  if (ids === undefined) return
  if (typeof ids === 'number') fn(ids)
  else for (const id of ids) fn(id)
}

/** The bucket without `id` (undefined once empty). */
export function removeId(ids: Ids | undefined, id: number): Ids | undefined {
  if (ids === undefined || ids === id) return undefined
  if (typeof ids === 'number') return ids
  const i = ids.indexOf(id)
  if (i !== -1) ids.splice(i, 1)
  return ids.length === 0 ? undefined : ids.length === 1 ? ids[0] : ids
}
