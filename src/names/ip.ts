/**
 * IP addresses in one canonical spelling, so that every spelling of an address finds the
 * same events: IPv4 dotted quad; IPv6 as RFC 5952 (lower case, no leading zeros, the longest
 * run of zero groups compressed); IPv4-mapped IPv6 (`::ffff:1.2.3.4`) becomes the IPv4 address.
 */

/** The canonical spelling of an IP address, or null when the text is not one. */
export function canonicalIp(text: string): string | null {
  if (text.length === 0 || text.length > 45) return null
  if (text.indexOf(':') === -1) return isDottedQuad(text) ? canonicalV4(text) : null
  const groups = ipv6Groups(text)
  if (groups === null) return null
  if (groups[0] === 0 && groups[1] === 0 && groups[2] === 0 && groups[3] === 0 && groups[4] === 0 && groups[5] === 0xffff) {
    return `${groups[6]! >> 8}.${groups[6]! & 255}.${groups[7]! >> 8}.${groups[7]! & 255}`
  }
  return formatV6(groups)
}

/** True for an IPv4 or IPv6 address in any accepted spelling. */
export const isIp = (text: string) => canonicalIp(text) !== null

// A valid dotted quad is already canonical (leading zeros are rejected): no new string.
const canonicalV4 = (text: string) => text

/** Whether the text is a dotted quad (decimal, no leading zeros): ipv4() without building the octets. */
function isDottedQuad(text: string): boolean {
  let parts = 0
  let digits = 0
  let n = 0
  for (let i = 0; i <= text.length; i++) {
    const c = i === text.length ? 46 : text.charCodeAt(i)
    if (c === 46) {
      if (digits === 0 || n > 255 || ++parts > 4) return false
      digits = 0
      n = 0
    } else {
      const d = c - 48
      // A leading zero only as the whole part ("0"); at most three digits.
      if (d < 0 || d > 9 || (digits === 1 && n === 0) || ++digits > 3) return false
      n = n * 10 + d
    }
  }
  return parts === 4
}

/** The four octets of a dotted quad (decimal, no leading zeros), or null. */
function ipv4(text: string): number[] | null {
  const parts = text.split('.')
  if (parts.length !== 4) return null
  const out: number[] = []
  for (const part of parts) {
    if (part.length === 0 || part.length > 3 || (part.length > 1 && part.charCodeAt(0) === 48)) return null
    let n = 0
    for (let i = 0; i < part.length; i++) {
      const c = part.charCodeAt(i) - 48
      if (c < 0 || c > 9) return null
      n = n * 10 + c
    }
    if (n > 255) return null
    out.push(n)
  }
  return out
}

/** The eight 16-bit groups of an IPv6 address (with an optional trailing dotted quad), or null. */
function ipv6Groups(text: string): number[] | null {
  // A zone (`fe80::1%eth0`) names an interface of the asking machine: not an address to look up.
  const double = text.indexOf('::')
  if (double !== -1 && text.indexOf('::', double + 1) !== -1) return null
  const head = double === -1 ? text : text.slice(0, double)
  const tail = double === -1 ? '' : text.slice(double + 2)
  const left = head === '' ? [] : head.split(':')
  const right = tail === '' ? [] : tail.split(':')
  const groups: number[] = []
  const parsed = [left, right].map((side, sideIndex) => {
    const values: number[] = []
    for (let i = 0; i < side.length; i++) {
      const part = side[i]!
      const last = sideIndex === (double === -1 ? 0 : 1) && i === side.length - 1
      if (last && part.indexOf('.') !== -1) {
        const quad = ipv4(part)
        if (quad === null) return null
        values.push((quad[0]! << 8) | quad[1]!, (quad[2]! << 8) | quad[3]!)
        continue
      }
      const n = hexGroup(part)
      if (n < 0) return null
      values.push(n)
    }
    return values
  })
  const [l, r] = parsed
  if (!l || !r) return null
  if (double === -1) {
    if (l.length !== 8) return null
    return l
  }
  // `::` stands for at least one zero group.
  if (l.length + r.length > 7) return null
  groups.push(...l)
  for (let i = l.length + r.length; i < 8; i++) groups.push(0)
  groups.push(...r)
  return groups
}

function hexGroup(part: string): number {
  if (part.length === 0 || part.length > 4) return -1
  let n = 0
  for (let i = 0; i < part.length; i++) {
    const c = part.charCodeAt(i)
    let d: number
    if (c >= 48 && c <= 57) d = c - 48
    else if (c >= 97 && c <= 102) d = c - 87
    else if (c >= 65 && c <= 70) d = c - 55
    else return -1
    n = n * 16 + d
  }
  return n
}

/** RFC 5952 text: the first longest run (≥ 2) of zero groups becomes `::`. */
function formatV6(groups: number[]): string {
  let bestStart = -1
  let bestLength = 1
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++
      continue
    }
    let j = i
    while (j < 8 && groups[j] === 0) j++
    if (j - i > bestLength) {
      bestStart = i
      bestLength = j - i
    }
    i = j
  }
  const hex = groups.map((g) => g.toString(16))
  if (bestStart === -1) return hex.join(':')
  return hex.slice(0, bestStart).join(':') + '::' + hex.slice(bestStart + bestLength).join(':')
}
