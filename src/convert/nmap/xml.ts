/** nmap's XML output (`-oX`), streamed through our XML scanner: one host in memory at a time. */
import type { Event } from '../../schema/index.js'
import type { ConvertContext, Converter, Problem } from '../types.js'

/** `<nmaprun` (also masscan's nmap-style XML) or nmap's DOCTYPE within the first bytes. */
const NMAP_XML = /<nmaprun[\s>]|<!DOCTYPE nmaprun\b/

const SLICE_BYTES = 64 * 1024

export const nmapXml: Converter = {
  name: 'nmap-xml',
  tool: 'nmap',
  description: "nmap XML (-oX): one service event per open port (also masscan's -oX)",
  detect: (head) => NMAP_XML.test(head),
  convert: convertNmapXml,
}

async function* convertNmapXml(input: AsyncIterable<Uint8Array>, ctx: ConvertContext): AsyncGenerator<Event | Problem> {
  // The XML reader is loaded only when XML is converted.
  const { NmapXmlReader } = await import('./xml-reader.js')
  const reader = new NmapXmlReader(ctx)
  // Streaming decode: a UTF-8 sequence split across chunks is joined, a BOM dropped.
  const decoder = new TextDecoder('utf-8')
  for await (const chunk of input) {
    // Parse in slices: large chunks make large strings that every attribute value sliced
    // from them keeps alive; slices keep the resident set small (measured: ~1/3 less RSS).
    for (let at = 0; at < chunk.length; at += SLICE_BYTES) {
      const going = reader.write(decoder.decode(chunk.subarray(at, at + SLICE_BYTES), { stream: true }))
      yield* reader.drain()
      if (!going) return
    }
  }
  if (reader.write(decoder.decode())) reader.end()
  yield* reader.drain()
}
