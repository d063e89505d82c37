/**
 * The PostgreSQL benches' events: event i has its own address (`10.x.y.z`) and fingerprint, and
 * there are ten events per domain `d<i/10>.test`, so a lookup or a selective search returns the
 * same number of events at every size.
 */
import { serializeEvent } from '../../src/normalize/index.js'
import { benchEvent } from './events.js'

/** Event i's address. */
export const ipOf = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`

/** Event i as a canonical JSON line (no newline). */
export function line(i: number): string {
  const e = benchEvent(i)
  e.ip = ipOf(i)
  e.host = `h${i % 10}.d${Math.floor(i / 10)}.test`
  e.event_fingerprint = i.toString(16).padStart(64, '0')
  return serializeEvent(e)
}

/** Events from … to-1 as JSON Lines, in chunks of about 1 MiB. */
export async function* lines(from: number, to: number): AsyncGenerator<string> {
  let chunk = ''
  for (let i = from; i < to; i++) {
    chunk += line(i) + '\n'
    if (chunk.length > 1 << 20) {
      yield chunk
      chunk = ''
    }
  }
  if (chunk) yield chunk
}
