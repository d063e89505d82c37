/**
 * Prepared events (prepare.ts) as rows of the events table, and those rows as binary COPY
 * data. A batch is folded by identity first, as the memory store would take its documents one
 * by one: the first copy decides the row's position, the latest time (the first of equals) its
 * document, and the earliest time its first_seen. PostgreSQL cannot update one row twice in
 * one INSERT … ON CONFLICT, so the folding is needed, not only faster.
 *
 * Binary COPY, not text: every field is its length and its bytes, so the JSON goes as the
 * bytes it came in (no escaping, often no encoding either), and the server parses nothing.
 */
import { createHash } from 'node:crypto'
import { storable } from '../../../query/index.js'
import { reverseLabels } from '../../names/domain.js'
import type { Prepared } from '../prepare.js'

/** One row to stage: the folded copies of one identity in a batch. */
export interface StagedRow {
  /** sha256(identity) as a latin1 string (one character per byte): the unique key. */
  identity: string
  /** The document kept: the latest copy. */
  kept: Prepared
  /** Position in the batch of the identity's first copy (the one that is new, if any is). */
  firstAt: number
  first: bigint
  last: bigint
}

/** Folds a batch's prepared events by identity, in order of first appearance. */
export function foldBatch(items: readonly Prepared[]): { rows: StagedRow[]; keys: string[] } {
  const byKey = new Map<string, StagedRow>()
  const keys: string[] = []
  for (let i = 0; i < items.length; i++) {
    const p = items[i]!
    const key = identityKey(p.identity)
    keys.push(key)
    const row = byKey.get(key)
    if (row === undefined) byKey.set(key, { identity: key, kept: p, firstAt: i, first: p.time, last: p.time })
    else {
      if (p.time > row.last) {
        row.kept = p
        row.last = p.time
      }
      if (p.time < row.first) row.first = p.time
    }
  }
  return { rows: [...byKey.values()], keys }
}

/** The unique key of an identity: sha256 of its UTF-8 text (32 bytes in the index), as latin1. */
export const identityKey = (identity: string) => createHash('sha256').update(identity).digest('binary')

/**
 * The staging table's columns, in COPY order. Only int4, bytea and text go in binary form;
 * ip and the times are text here and cast when merged.
 */
export const STAGE_TABLE = `(
  ord integer, identity bytea, json text, event_type text, severity text,
  ip text, host_rev text COLLATE "C", first_seen text, last_seen text,
  source text, fingerprint text, port text, country_code text, country_name text, asn text
)`

/**
 * Merges the staged rows into events: a new identity is inserted; a known one keeps the
 * document (and the columns read from it) of its latest observation, its earliest first seen
 * and its latest last seen. Returns the rows inserted or changed (`k` their identity, `inserted` which).
 */
export const MERGE_STAGED = `
WITH merged AS (
  INSERT INTO events AS e (identity, json, event_type, severity, ip, host_rev, first_seen, last_seen, source, fingerprint, port, country_code, country_name, asn)
  SELECT identity, json, event_type, severity, ip::inet, host_rev, first_seen::numeric, last_seen::numeric, source, fingerprint, port, country_code, country_name, asn::bigint
  FROM l9kit_stage ORDER BY ord
  ON CONFLICT (identity) DO UPDATE SET
    json = CASE WHEN excluded.last_seen > e.last_seen THEN excluded.json ELSE e.json END,
    event_type = CASE WHEN excluded.last_seen > e.last_seen THEN excluded.event_type ELSE e.event_type END,
    severity = CASE WHEN excluded.last_seen > e.last_seen THEN excluded.severity ELSE e.severity END,
    country_code = CASE WHEN excluded.last_seen > e.last_seen THEN excluded.country_code ELSE e.country_code END,
    country_name = CASE WHEN excluded.last_seen > e.last_seen THEN excluded.country_name ELSE e.country_name END,
    asn = CASE WHEN excluded.last_seen > e.last_seen THEN excluded.asn ELSE e.asn END,
    last_seen = greatest(e.last_seen, excluded.last_seen),
    first_seen = least(e.first_seen, excluded.first_seen)
  WHERE excluded.last_seen > e.last_seen OR excluded.first_seen < e.first_seen
  RETURNING id, identity, xmax = 0 AS inserted
)
SELECT id::text, identity AS k, inserted FROM merged`

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1')
const FIELDS = 15

/** The rows as one binary COPY stream: header, one tuple per row, trailer. */
export function copyBinary(rows: readonly StagedRow[]): Buffer {
  const values: (string | Buffer | null)[][] = []
  let size = SIGNATURE.length + 8 + 2
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!
    const p = row.kept
    const json = p.utf8 ? Buffer.from(p.utf8.buffer, p.utf8.byteOffset, p.utf8.byteLength) : p.json
    const tuple = [
      json,
      p.leak ? 'leak' : 'service',
      p.leak ? storable(p.severity) : '',
      p.ip === '' ? null : p.ip,
      p.name === '' ? null : reverseLabels(p.name),
      row.first.toString(),
      row.last.toString(),
      p.source,
      p.fingerprint,
      p.port,
      p.countryCode === '' ? null : p.countryCode,
      p.countryName === '' ? null : p.countryName,
      String(p.asn),
    ]
    size += 2 + FIELDS * 4 + 4 + 32
    for (const v of tuple) if (v !== null) size += typeof v === 'string' ? Buffer.byteLength(v) : v.length
    values.push(tuple)
  }
  const out = Buffer.allocUnsafe(size)
  let at = SIGNATURE.copy(out, 0)
  at = out.writeInt32BE(0, at) // flags
  at = out.writeInt32BE(0, at) // header extension
  for (let i = 0; i < rows.length; i++) {
    at = out.writeInt16BE(FIELDS, at)
    at = out.writeInt32BE(4, at)
    at = out.writeInt32BE(i, at)
    at = out.writeInt32BE(32, at)
    at += out.write(rows[i]!.identity, at, 'latin1')
    for (const v of values[i]!) {
      if (v === null) {
        at = out.writeInt32BE(-1, at)
        continue
      }
      const lengthAt = at
      at += 4
      const n = typeof v === 'string' ? out.write(v, at, 'utf8') : v.copy(out, at)
      out.writeInt32BE(n, lengthAt)
      at += n
    }
  }
  at = out.writeInt16BE(-1, at)
  return out.subarray(0, at)
}

/** Writes the COPY data (in 1 MiB pieces, waiting when the stream is full) and ends the stream. */
export async function writeAll(stream: NodeJS.WritableStream, data: Buffer): Promise<void> {
  const done = new Promise<void>((resolve, reject) => {
    stream.once('finish', resolve)
    stream.once('error', reject)
  })
  const piece = 1 << 20
  for (let at = 0; at < data.length; at += piece) {
    if (!stream.write(data.subarray(at, at + piece))) await new Promise((resolve) => stream.once('drain', resolve))
  }
  stream.end()
  await done
}
