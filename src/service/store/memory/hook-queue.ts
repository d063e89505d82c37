/**
 * One hook's delivery queue in the memory HookStore: every kept delivery in queue order, the
 * pending ones sorted by the sequence number each got when queued (its head is [0]), and the
 * one a dispatcher holds.
 */
import type { DeliveryRecord } from '../hook-types.js'

export interface Entry {
  record: DeliveryRecord
  /** Position in the hook's order: the head is the pending entry with the smallest. */
  seq: number
  /** The body; dropped once delivered. */
  body: string | null
  /** While a dispatcher holds it: when the lease ends (ms); 0 when not held. */
  leaseUntil: number
}

export interface Queue {
  /** Every kept delivery, oldest first. */
  all: Entry[]
  /** Pending deliveries sorted by seq: [0] is the head. */
  pending: Entry[]
  /** The entry a dispatcher holds, if any: a retried entry may move ahead of it, but not be sent beside it. */
  held: Entry | null
  delivered: number
}

/** A failed delivery back in the queue at its original place in the hook's order. */
export function requeue(queue: Queue, entry: Entry, now: number): void {
  const record = entry.record
  record.status = 'pending'
  record.nextAttemptAt = now
  record.updatedAt = now
  let i = queue.pending.length
  while (i > 0 && queue.pending[i - 1]!.seq > entry.seq) i--
  queue.pending.splice(i, 0, entry)
}

/** Drops the oldest delivered record of the queue; returns its id (undefined when none). */
export function forgetOldestDelivered(queue: Queue): string | undefined {
  const i = queue.all.findIndex((e) => e.record.status === 'delivered')
  if (i === -1) return undefined
  const [entry] = queue.all.splice(i, 1)
  queue.delivered--
  return entry!.record.id
}

export function removeEntry(list: Entry[], entry: Entry): void {
  const i = list.indexOf(entry)
  if (i !== -1) list.splice(i, 1)
}
