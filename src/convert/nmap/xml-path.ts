/** The open-element path of a streaming XML parse, as `/nmaprun/host[3]/ports/port[2]`. */

/** Elements that repeat among their siblings: always shown with their 1-based index. */
const REPEATING = new Set(['host', 'port', 'script', 'table', 'elem', 'hostname', 'address', 'cpe', 'osmatch', 'extraports', 'hop'])

export class ElementPath {
  private readonly names: string[] = []
  /** 1-based position of each open element among its same-named siblings. */
  private readonly indexes: number[] = []
  /** Child counters per depth (index 0: children of the document); allocated on first child. */
  private readonly counts: (Map<string, number> | undefined)[] = []

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
    let counts = this.counts[depth]
    if (counts === undefined) {
      counts = new Map()
      this.counts[depth] = counts
    }
    const n = (counts.get(name) ?? 0) + 1
    counts.set(name, n)
    this.names.push(name)
    this.indexes.push(n)
    // A new element starts its children's count afresh.
    if (this.counts[depth + 1] !== undefined) this.counts[depth + 1] = undefined
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
