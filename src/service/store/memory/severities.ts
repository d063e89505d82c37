/**
 * The memory store's severities: `leak.severity` of each event's kept bytes as a number
 * (interned: few distinct values), whether the event is a leak, and the count of stored leaks
 * per severity, kept up to date on ingest (the web view's index page).
 */
import { Column } from './columns.js'
import { detach } from './strings.js'

export class Severities {
  /** Severity number of each event. */
  readonly of = new Column((n) => new Int32Array(n))
  /** 1 for a leak event, 0 for a service event (the kept copy decides). */
  readonly leak = new Column((n) => new Uint8Array(n))
  private readonly numbers = new Map<string, number>()
  /** The severity texts, by number. */
  readonly names: string[] = []
  private readonly leaks: number[] = []

  /** Records event `id`'s type and severity (`replacing` its previous ones) and keeps the counts. */
  set(id: number, leak: boolean, severity: string, replacing: boolean): void {
    let n = this.numbers.get(severity)
    if (n === undefined) {
      n = this.names.length
      this.numbers.set(detach(severity), n)
      this.names.push(detach(severity))
      this.leaks.push(0)
    }
    this.of.ensure(id)
    this.leak.ensure(id)
    if (replacing && this.leak.data[id]) this.leaks[this.of.data[id]!]!--
    // A later observation may turn a service event into a leak or back.
    this.leak.data[id] = leak ? 1 : 0
    if (leak) this.leaks[n]!++
    this.of.data[id] = n
  }

  /** Event `id` is deleted: it no longer counts. */
  remove(id: number): void {
    if (this.leak.data[id]) this.leaks[this.of.data[id]!]!--
    this.leak.data[id] = 0
  }

  /** Stored leaks by severity (those with none left out). */
  counts(): Record<string, number> {
    // fromEntries defines own members, so a severity such as `__proto__` stays plain data.
    return Object.fromEntries(this.names.map((name, n) => [name, this.leaks[n]!] as const).filter(([, count]) => count > 0))
  }
}
