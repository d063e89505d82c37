/**
 * A SeenEvent made from the instants a store holds: the RFC 3339 text of each time is written
 * only when read (the bulk export reads the instants of most events and the text of few).
 */
import { formatTime, type Instant } from '../../time/index.js'
import type { SeenEvent } from './types.js'

export class SeenAt implements SeenEvent {
  constructor(
    readonly json: Uint8Array,
    readonly first: Instant,
    readonly last: Instant,
  ) {}

  get firstSeen(): string {
    return formatTime(this.first)
  }

  get lastSeen(): string {
    return formatTime(this.last)
  }
}
