/**
 * Every converter by name, and `auto` detection from the first 4 KiB of an input. Order
 * matters for detection: the most specific formats are tried first (event documents, XML,
 * masscan's framings, then JSON Lines tools by their distinctive members, then plain lines).
 */
import { jsonHead } from './common/records.js'
import { obj } from './common/values.js'
import { censys } from './censys/index.js'
import { fitted } from './dispatch.js'
import { dnsx } from './dnsx/index.js'
import { hostport } from './hostport/index.js'
import { httpx } from './httpx/index.js'
import { katana } from './katana/index.js'
import { l9 } from './l9/index.js'
import { masscanConsole, masscanJson, masscanList, masscanNdjson } from './masscan/index.js'
import { naabu } from './naabu/index.js'
import { nmapGrep, nmapXml } from './nmap/index.js'
import { nuclei } from './nuclei/index.js'
import { rustscan } from './rustscan/index.js'
import { shodan } from './shodan/index.js'
import { subfinder } from './subfinder/index.js'
import { sx } from './sx/index.js'
import { tlsx } from './tlsx/index.js'
import type { Converter } from './types.js'
import { url } from './url/index.js'
import { zgrab2 } from './zgrab2/index.js'
import { zmap } from './zmap/index.js'

/** All converters, in detection order. */
export const CONVERTERS: readonly Converter[] = [
  l9,
  nmapXml,
  nmapGrep,
  masscanJson,
  masscanNdjson,
  masscanList,
  masscanConsole,
  nuclei,
  katana,
  shodan,
  censys,
  zgrab2,
  httpx,
  tlsx, // before naabu: a tlsx line has ip and port too
  subfinder,
  dnsx,
  sx, // before naabu: {"scan","ip","port"}
  naabu,
  url,
  rustscan,
  zmap,
  hostport,
]

/** How much of an input `auto` looks at. */
export const DETECT_BYTES = 4096

/** The names `--from` accepts (besides `auto`), in detection order. */
export const converterNames = (): string[] => CONVERTERS.map((c) => c.name)

const named = new Map<string, Converter>()

/**
 * The converter called `name` (what `--from NAME` runs), if any: a JSON format's reports the
 * records another format claims (dispatch.ts).
 */
export function converterNamed(name: string): Converter | undefined {
  let converter = named.get(name)
  if (converter) return converter
  const raw = CONVERTERS.find((c) => c.name === name)
  if (!raw) return undefined
  converter = fitted(raw, CONVERTERS)
  named.set(name, converter)
  return converter
}

/**
 * The first converter whose detect() accepts `head`, or undefined. When the input starts
 * with a whole JSON object on one line (JSON Lines), only that first record is shown to the
 * detectors, so a later record of another shape cannot sway the guess.
 */
export function detectFormat(head: string): Converter | undefined {
  const cut = head.length > DETECT_BYTES ? head.slice(0, DETECT_BYTES) : head
  const text = firstJsonLine(cut) ?? cut
  return CONVERTERS.find((c) => {
    try {
      return c.detect(text)
    } catch {
      return false
    }
  })
}

/** The first record when it is a whole JSON object on one line (after blank and log lines). */
function firstJsonLine(head: string): string | undefined {
  const text = jsonHead(head)
  if (text === undefined || !text.startsWith('{')) return undefined
  const end = text.indexOf('\n')
  const line = end === -1 ? text : text.slice(0, end)
  try {
    return obj(JSON.parse(line)) ? line : undefined
  } catch {
    return undefined
  }
}

/** Why detection failed, in words a person can act on. */
export function undetectedMessage(name: string, head: string): string {
  const first = head.replace(/^\uFEFF/, '').split('\n').find((l) => l.trim() !== '') ?? ''
  const shown = first.length > 60 ? `${first.slice(0, 57)}...` : first
  return `${name}: cannot tell the input format from its first bytes (${JSON.stringify(shown)}); name it with --from (${converterNames().join(', ')})`
}

/**
 * Reads up to DETECT_BYTES from `input` and returns them as text together with a stream that
 * yields the whole input again (the bytes read first, then the rest).
 */
export async function peekHead(input: AsyncIterable<Uint8Array>): Promise<{ head: string; stream: AsyncIterable<Uint8Array> }> {
  const iterator = input[Symbol.asyncIterator]()
  const held: Uint8Array[] = []
  let size = 0
  let done = false
  while (size < DETECT_BYTES) {
    const next = await iterator.next()
    if (next.done) {
      done = true
      break
    }
    held.push(next.value)
    size += next.value.length
  }
  const bytes = Buffer.concat(held)
  const head = new TextDecoder('utf-8').decode(bytes.subarray(0, DETECT_BYTES))
  return { head, stream: replayed(held, done ? undefined : iterator) }
}

/** The chunks `held` (read ahead), then what `rest` still gives (none when it had ended). */
export async function* replayed(held: readonly Uint8Array[], rest: AsyncIterator<Uint8Array> | undefined): AsyncGenerator<Uint8Array> {
  yield* held
  if (!rest) return
  for (;;) {
    const next = await rest.next()
    if (next.done) return
    yield next.value
  }
}
