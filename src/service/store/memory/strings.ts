/** Small string helpers of the memory store's indexes. */

/**
 * A copy of a short string that shares no memory with the text it was cut from: V8 keeps
 * slices of 13 characters or more as views of their parent, and an IP taken from an event's
 * JSON line would otherwise keep the whole line alive as long as the index holds the key.
 */
export function detach(text: string): string {
  // Joined to one character and cut again: V8 flattens the joined text into a string of its own
  // (a copy of `text` alone), and the cut is a view of that, not of the original parent. Six
  // times cheaper than a trip through a Buffer, and ingest does it for every new address and name.
  return text.length < 13 ? text : (' ' + text).slice(1)
}

/** FNV-1a over UTF-16 code units, cut to 30 bits so it stays a small integer in V8. */
export function hash30(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h & 0x3fffffff
}
