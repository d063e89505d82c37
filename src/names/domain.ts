/**
 * Host names in one canonical spelling: ASCII lower case (IDNA A-labels for Unicode names),
 * without the trailing dot; and the label-reversed form the name index sorts by.
 */
import { domainToASCII } from 'node:url'

const MAX_NAME = 253
const MAX_LABEL = 63

/**
 * The canonical spelling of a domain name, or null when the text is not one. Labels are
 * 1–63 characters of letters, digits, `-` (not first or last) and `_` (service labels such as
 * `_dmarc`); the whole name at most 253 characters. A name whose last label is all digits is
 * an IPv4 address, not a domain.
 */
export function canonicalDomain(text: string): string | null {
  if (text.length === 0 || text.length > 4 * MAX_NAME) return null
  let name = text
  if (!isAscii(name)) {
    name = domainToASCII(name)
    if (name === '') return null
  }
  if (name.charCodeAt(name.length - 1) === 46) name = name.slice(0, -1)
  if (name.length === 0 || name.length > MAX_NAME) return null
  let lower = true
  let labelStart = 0
  let allDigits = true
  for (let i = 0; i <= name.length; i++) {
    const c = i === name.length ? 46 : name.charCodeAt(i)
    if (c === 46) {
      const length = i - labelStart
      if (length === 0 || length > MAX_LABEL) return null
      if (name.charCodeAt(labelStart) === 45 || name.charCodeAt(i - 1) === 45) return null
      if (i === name.length && allDigits) return null
      labelStart = i + 1
      allDigits = true
      continue
    }
    if (c >= 97 && c <= 122) allDigits = false
    else if (c >= 65 && c <= 90) {
      allDigits = false
      lower = false
    } else if (c === 45 || c === 95) allDigits = false
    else if (c < 48 || c > 57) return null
  }
  return lower ? name : name.toLowerCase()
}

/** `www.example.com` → `com.example.www`: names under one domain sort next to each other. */
export function reverseLabels(name: string): string {
  return name.split('.').reverse().join('.')
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 127) return false
  return true
}
