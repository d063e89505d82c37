/** The open-element path of a streaming XML parse, as `/nmaprun/host[3]/ports/port[2]`. */

/** Elements that repeat among their siblings: always shown with their 1-based index. */
const REPEATING = new Set(['host', 'port', 'script', 'table', 'elem', 'hostname', 'address', 'cpe', 'osmatch', 'extraports', 'hop'])

/** Past this many distinct child names under one element, a Map counts them (no quadratic search). */
const FEW_NAMES = 16

/**
 * Same-named sibling counts of the children of one open element. Reused for every element at
 * its depth, so opening an element allocates nothing: an element has few distinct child
 * names, and a short list is searched faster than a fresh Map is built.
 */
class SiblingCounts {
  private readonly names: string[] = []
  private readonly counts: number[] = []
  private size = 0
  private many: Map<string, number> | undefined

  /** Forgets the children counted so far (a new element opened at the depth above). */
  reset(): void {
    this.size = 0
    this.many = undefined
  }

  /** The 1-based position of a new child named `name` among its same-named siblings. */
  next(name: string): number {
    const { names, counts } = this
    for (let k = 0; k < this.size; k++) if (names[k] === name) return ++counts[k]!
    if (this.size < FEW_NAMES) {
      names[this.size] = name
      counts[this.size++] = 1
      return 1
    }
    this.many ??= new Map()
    const n = (this.many.get(name) ?? 0) + 1
    this.many.set(name, n)
    return n
  }
}

export class ElementPath {
  private readonly names: string[] = []
  /** 1-based position of each open element among its same-named siblings. */
  private readonly indexes: number[] = []
  /** Child counters per depth (index 0: children of the document). */
  private readonly counts: SiblingCounts[] = []

  get depth(): number {
    return this.names.length
  }

  /** Name of the innermost open element, or empty at the top. */
  get current(): string {
    return this.names[this.names.length - 1] ?? ''
  }

  /** Name of the element `up` levels above the innermost one (1 = its parent). */
  ancestor(up: number): string {
    return this.names[this.names.length - 1 - up] ?? ''
  }

  open(name: string): void {
    const depth = this.names.length
    const n = this.countsAt(depth).next(name)
    this.names.push(name)
    this.indexes.push(n)
    // A new element starts its children's count afresh.
    this.counts[depth + 1]?.reset()
  }

  private countsAt(depth: number): SiblingCounts {
    let counts = this.counts[depth]
    if (counts === undefined) {
      counts = new SiblingCounts()
      this.counts[depth] = counts
    }
    return counts
  }

  close(): void {
    this.names.pop()
    this.indexes.pop()
  }

  /** Built only when asked (for problems and event origins), not on every element. */
  toString(): string {
    if (this.names.length === 0) return '/'
    let path = ''
    for (let i = 0; i < this.names.length; i++) {
      const name = this.names[i]!
      const n = this.indexes[i]!
      path += n > 1 || REPEATING.has(name) ? `/${name}[${n}]` : `/${name}`
    }
    return path
  }
}
