/**
 * New events across processes (Store.onNewEvent on PostgreSQL): the ingest transaction sends the
 * ids of the rows it inserted with NOTIFY on the schema's channel (delivered at commit, in commit
 * order); every process that has a listener LISTENs and reads those rows by id. Ids, not events,
 * because a NOTIFY payload holds at most 8000 bytes; a batch's ids go in as many notifications as
 * they need. A process that is not listening (no subscriber, or its connection is being made
 * again) misses what is stored meanwhile: the live stream is "from now on", not a durable queue.
 */
import type { Sql, TransactionSql } from 'postgres'
import type { Event } from '../../../schema/index.js'
import type { NewEvent, NewEventFeed, NewEventListener } from '../types.js'

/** Largest payload sent (PostgreSQL refuses 8000 bytes and more). */
const PAYLOAD_BYTES = 7900

/** The channel of a schema's new events. */
export const newEventsChannel = (schema: string) => `l9kit_new_${schema}`.slice(0, 63)

/** Sends the new rows' ids (ascending), in notifications of at most PAYLOAD_BYTES each. */
export async function notifyAdded(tx: TransactionSql, channel: string, ids: readonly string[]): Promise<void> {
  let payload = ''
  for (const id of ids) {
    if (payload.length + id.length + 1 > PAYLOAD_BYTES) {
      await tx`SELECT pg_notify(${channel}, ${payload})`
      payload = ''
    }
    payload = payload === '' ? id : `${payload},${id}`
  }
  if (payload !== '') await tx`SELECT pg_notify(${channel}, ${payload})`
}

/** The listeners of one store, and the LISTEN that feeds them while there is one. */
export class NewEventFeeds {
  private readonly listeners = new Set<NewEventListener>()
  private listening: Promise<{ unlisten(): Promise<void> }> | null = null
  /** Reads run one after another, so listeners hear events in commit order. */
  private reading: Promise<void> = Promise.resolve()

  constructor(
    private readonly sql: Sql,
    private readonly channel: string,
    private readonly opening: Promise<void>,
  ) {}

  add(listener: NewEventListener): NewEventFeed {
    const own: NewEventListener = (item) => listener(item)
    this.listeners.add(own)
    if (this.listening === null) {
      const started = this.opening.then(() => this.sql.listen(this.channel, (payload) => this.read(payload)))
      // A LISTEN that failed is tried again by the next listener, not kept as the answer.
      started.catch(() => {
        if (this.listening === started) this.listening = null
      })
      this.listening = started
    }
    const listening = this.listening
    return {
      ready: listening.then(() => undefined),
      stop: () => {
        this.listeners.delete(own)
        if (this.listeners.size > 0 || this.listening !== listening) return
        this.listening = null
        void listening.then((l) => l.unlisten()).catch(() => undefined)
      },
    }
  }

  /** Stops listening (the store is closing). */
  async close(): Promise<void> {
    this.listeners.clear()
    const listening = this.listening
    this.listening = null
    if (listening) await (await listening.catch(() => null))?.unlisten().catch(() => undefined)
  }

  private read(payload: string): void {
    if (payload === '') return
    const ids = payload.split(',')
    this.reading = this.reading.then(async () => {
      if (this.listeners.size === 0) return
      const rows = (await this.sql`SELECT json, event_type = 'leak' FROM events WHERE id = ANY(${this.sql.array(ids)}::bigint[]) ORDER BY id`.raw()) as unknown as [Buffer, Buffer][]
      for (const [json, leak] of rows) {
        let parsed: Event | undefined
        const item: NewEvent = { bytes: json, leak: leak[0] === 0x74, event: () => (parsed ??= JSON.parse(json.toString('utf8')) as Event) }
        for (const listener of this.listeners) listener(item)
      }
    }).catch(() => undefined) // a failed read loses those events for the stream, never the ones after
  }
}
