/**
 * One RustScan greppable line (`-g`: `192.0.2.1 -> [22,80,443]`) → one minimal `service`
 * event per port, as a port scanner's own events are: address, port, transport `tcp`, the
 * run's start as time (RustScan prints none), an empty summary. A port that is not 1–65535
 * is reported; the line's other ports are converted.
 */
import { emptyEvent } from '../../schema/empty.js'
import type { Event } from '../../schema/index.js'
import { ipVersion, isHostName, portText, setAddress, unbracket } from '../common/net.js'
import type { Mapped, Unconvertible } from '../common/records.js'
import type { ConvertContext } from '../types.js'

/** `address -> [ports]`, blanks allowed around the arrow, the brackets and the commas. */
export const GREPPABLE = /^(\S+)\s*->\s*\[([^\]]*)\]$/

/** One greppable line → one event per port, or why not. */
export function mapRustscan(line: string, ctx: ConvertContext): Mapped {
  const m = GREPPABLE.exec(line)
  if (!m) return { reason: `not a RustScan greppable line (expected 'ip -> [port,…]'): ${clip(line)}` }
  const address = unbracket(m[1]!)
  if (ipVersion(address) === 0 && (!isHostName(address) || /^[\d.]+$/.test(address))) return { reason: `'${clip(address)}' is not an IP address or host name` }
  const out: (Event | Unconvertible)[] = []
  for (const word of m[2]!.split(',')) {
    if (word.trim() === '') continue // `[]` or a trailing comma: no port there
    const port = portText(word)
    if (!port) {
      out.push({ reason: `port '${clip(word.trim())}' is not 1–65535` })
      continue
    }
    const e = emptyEvent()
    e.event_type = 'service'
    e.time = ctx.runStart
    setAddress(e, address)
    e.port = port
    e.transport = ['tcp']
    out.push(e)
  }
  return out
}

const clip = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}...` : text)
