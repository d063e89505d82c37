/**
 * masscan's JSON output (`-oJ`), one record per line, in all three framings it has had:
 * - before 2017: no brackets, keys without quotes (`{ ip: "…", ports: [ … ] },`), a last
 *   line `{finished: 1}`;
 * - 2017–2018: `[`, every record ending in `},` (a trailing comma before `]`), `]`;
 * - since: `[`, records separated by `,` lines, `]`.
 * Status records: `{"ip","timestamp","ports":[{port,proto,status,reason,ttl}]}`; banner
 * records: `ports[0].service{name,banner}` with non-printable bytes escaped as `\u00NN`.
 */
import { badJson, textTooDeep, tooDeep } from '../../jsonl/index.js'
import { obj, str } from '../common/values.js'
import type { Converter } from '../types.js'
import { convertLines, jsonBanner, type LineResult } from './lines.js'
import type { MasscanRecord } from './record.js'

const FINISHED = /^\{\s*"?finished"?\s*:\s*1\s*\}$/

export const masscanJson: Converter = {
  name: 'masscan-json',
  tool: 'masscan',
  description: 'masscan JSON (-oJ, any of its three framings): open ports and banners',
  detect(head) {
    const first = head
      .replace(/^\uFEFF/, '')
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l !== '' && l !== '[' && l !== ',')
    return first !== undefined && /^\[?\s*,?\s*\{\s*"?ip"?\s*:/.test(first) && /"?ports"?\s*:\s*\[/.test(first) && !first.includes('"rec_type"')
  },
  convert: (input, ctx) => convertLines(input, ctx, parseJsonLine),
}

function parseJsonLine(line: string): LineResult {
  let text = line.trim()
  if (text === '[' || text === ']' || text === ',') return undefined
  if (text.startsWith(',')) text = text.slice(1).trimStart()
  if (text.endsWith(',')) text = text.slice(0, -1).trimEnd()
  if (FINISHED.test(text)) return undefined
  if (textTooDeep(text)) return [{ problem: tooDeep().message }]
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    try {
      value = JSON.parse(quoteKeys(text)) // the oldest framing's bare keys
    } catch {
      return [{ problem: badJson(error).message }]
    }
  }
  // One line holding the whole array (a re-serialised file): its elements are the records.
  return (Array.isArray(value) ? value : [value]).flatMap(recordsOf)
}

function recordsOf(value: unknown): NonNullable<LineResult> {
  const record = obj(value)
  if (!record) return [{ problem: 'expected a JSON object' }]
  const ports = record.ports
  if (!Array.isArray(ports) || ports.length === 0) return [{ problem: 'record has no "ports" list' }]
  const ip = str(record.ip)
  const timestamp = typeof record.timestamp === 'string' || typeof record.timestamp === 'number' ? record.timestamp : undefined
  return ports.map((entry): MasscanRecord | { problem: string } => {
    const p = obj(entry)
    if (!p) return { problem: 'a "ports" entry is not an object' }
    const port = typeof p.port === 'number' || typeof p.port === 'string' ? p.port : ''
    const proto = str(p.proto)
    const service = obj(p.service)
    if (!service) return { ip, port, proto, status: str(p.status), timestamp }
    return { ip, port, proto, status: 'banner', timestamp, service: str(service.name), banner: jsonBanner(str(service.banner)) }
  })
}

/** `{ ip: "…", ports: [ {port: 80} ] }` → valid JSON: quotes bare member names outside strings. */
export function quoteKeys(text: string): string {
  let out = ''
  let i = 0
  while (i < text.length) {
    const c = text[i]!
    if (c === '"') {
      let j = i + 1
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1
      out += text.slice(i, j + 1)
      i = j + 1
    } else if (/[A-Za-z_$]/.test(c)) {
      let j = i
      while (j < text.length && /[\w$]/.test(text[j]!)) j++
      const word = text.slice(i, j)
      let k = j
      while (text[k] === ' ' || text[k] === '\t') k++
      out += text[k] === ':' ? `"${word}"` : word
      i = j
    } else {
      out += c
      i++
    }
  }
  return out
}
