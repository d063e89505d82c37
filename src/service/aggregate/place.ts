/**
 * An event's `geoip` and `network`, as the aggregation writes them: the newest event's that says
 * anything. Read from the stored bytes (facts.ts reads the rest), found from the end: the last
 * `,"geoip":` followed by an object, then `,"network":` and an object, then members up to the
 * document's closing brace and nothing after it (one level deeper, a brace would close too
 * soon). Bytes laid out otherwise: the whole event is parsed.
 */
import { emptyEvent, type Event } from '../../schema/index.js'
import { hasGeoIp, hasNetwork } from './aggregate.js'
import { bytesOf, closesDocument, startsWith, valueEnd } from './json-bytes.js'

/** An event's `geoip` and `network` as JSON text (UTF-8, as stored), and whether each says anything. */
export interface Place {
  geoip: Uint8Array
  hasGeoIp: boolean
  network: Uint8Array
  hasNetwork: boolean
}

const GEOIP = bytesOf(',"geoip":')
const NETWORK = bytesOf(',"network":')
/** A geoip and a network whose known members are all empty start so (unknown members may follow). */
const EMPTY_GEOIP = bytesOf(JSON.stringify(emptyEvent().geoip).slice(0, -2))
const EMPTY_NETWORK = bytesOf(JSON.stringify(emptyEvent().network).slice(0, -1))

/** The place of an event's stored bytes. */
export function placeOf(b: Buffer): Place {
  const at = lastGeoip(b)
  if (at > 0) {
    const geoipAt = at + GEOIP.length
    const geoipEnd = valueEnd(b, geoipAt)
    if (geoipEnd > 0 && b[geoipAt] === 0x7b && startsWith(b, geoipEnd, NETWORK)) {
      const networkAt = geoipEnd + NETWORK.length
      const networkEnd = valueEnd(b, networkAt)
      if (networkEnd > 0 && b[networkAt] === 0x7b && closesDocument(b, networkEnd)) {
        // A member whose known members are all empty starts with their empty text; one that does not, says something.
        return {
          geoip: b.subarray(geoipAt, geoipEnd),
          hasGeoIp: !emptyAt(b, geoipAt, EMPTY_GEOIP),
          network: b.subarray(networkAt, networkEnd),
          hasNetwork: !emptyAt(b, networkAt, EMPTY_NETWORK),
        }
      }
    }
  }
  return placeOfObjects(JSON.parse(b.toString('utf8')) as Partial<Event>)
}

/** The place of a parsed event. */
export function placeOfObjects(event: Partial<Event>): Place {
  const empty = emptyEvent()
  const geoip = event.geoip ?? empty.geoip
  const network = event.network ?? empty.network
  return { geoip: Buffer.from(JSON.stringify(geoip)), hasGeoIp: hasGeoIp(geoip), network: Buffer.from(JSON.stringify(network)), hasNetwork: hasNetwork(network) }
}

/**
 * The index of the last `,"geoip":` (a few hundred bytes from the end), or -1: a Horspool search
 * run backwards, the window moved by where the byte under its first position next occurs in the
 * pattern, so most steps skip several bytes (cheaper than Buffer.lastIndexOf's fixed cost).
 */
function lastGeoip(b: Buffer): number {
  for (let at = b.length - GEOIP.length; at >= 0; at -= GEOIP_SHIFT[b[at]!]!) {
    if (b[at] === 0x2c && startsWith(b, at, GEOIP)) return at
  }
  return -1
}

/** How far left the window moves when byte c sits under its first position (Horspool, mirrored). */
const GEOIP_SHIFT = (() => {
  const shift = new Uint8Array(256).fill(GEOIP.length)
  for (let k = GEOIP.length - 1; k >= 1; k--) shift[GEOIP[k]!] = k
  return shift
})()

/** Whether the object at `at` begins with `empty` and then ends or goes on with another member. */
function emptyAt(b: Buffer, at: number, empty: Buffer): boolean {
  const next = b[at + empty.length]
  return startsWith(b, at, empty) && (next === 0x7d || next === 0x2c)
}
