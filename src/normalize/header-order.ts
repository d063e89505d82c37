/**
 * The order header maps are written in. The original tools write every map with Go's encoder,
 * which sorts keys byte-wise on their UTF-8 bytes (docs/specification.md); that is our canonical
 * order, so canonical bytes equal theirs. `input` keeps the order the map has.
 */

/**
 * Compares two names by their UTF-8 bytes (= by code point). UTF-16 code units give the same
 * order except between a surrogate (a character above U+FFFF) and U+E000–U+FFFF: there the
 * code unit is lower but the code point higher, so both are moved before comparing.
 */
export function compareNames(a: string, b: string): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i)
    let y = b.charCodeAt(i)
    if (x === y) continue
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000
    }
    return x - y
  }
  return a.length - b.length
}

/** True when the map lists its names (as JSON.stringify will) in ascending byte order. */
export function namesSorted(map: Record<string, unknown>): boolean {
  let prev: string | undefined
  for (const name in map) {
    if (prev !== undefined && compareNames(prev, name) >= 0) return false
    prev = name
  }
  return true
}

/**
 * The JSON text of a header map with its names in byte order. Written by hand: an object
 * cannot hold that order when names look like array indices (`"10"`, `"9"`), which
 * JavaScript always lists first in numeric order.
 */
export function sortedMapText(map: Record<string, unknown>): string {
  const names = Object.keys(map).sort(compareNames)
  let out = '{'
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!
    const value = JSON.stringify(map[name])
    if (value === undefined) continue
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(name)}:${value}`
  }
  return `${out}}`
}
