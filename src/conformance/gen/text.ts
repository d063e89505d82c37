/** Arbitraries of the free-text values inside events: words, headers, summaries, hex. */
import fc, { type Arbitrary } from 'fast-check'

/** Lower-case hexadecimal of exactly `length` characters. */
export function hex(length: number): Arbitrary<string> {
  return fc.array(fc.constantFrom(...'0123456789abcdef'.split('')), { minLength: length, maxLength: length }).map((cs) => cs.join(''))
}

/** A 64-character lower-case hex fingerprint. */
export const fingerprint64 = (): Arbitrary<string> => hex(64)

/**
 * Any text a tool might put in a string member: empty, realistic words, printable Unicode
 * (whole graphemes, so it survives UTF-8 round trips), or ASCII with control characters.
 */
export function anyText(words: readonly string[] = [], maxLength = 24): Arbitrary<string> {
  const realistic = words.length > 0 ? [{ weight: 4, arbitrary: fc.constantFrom(...words) }] : []
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant('') },
    ...realistic,
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength }) },
  )
}

/** Header names, including ones that are special to JavaScript objects or JSON pointers. */
export const ODD_HEADER_NAMES = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '', 'a/b', 'x~y', 'Ünïcode'] as const
const COMMON_HEADER_NAMES = ['Server', 'server', 'Content-Type', 'content-type', 'Set-Cookie', 'X-Powered-By', 'Date', 'ETag', 'Location']

/** A header map as it appears in `http.header`: names as given (any case, odd ones too), string values. */
export function headerMap(maxSize = 5): Arbitrary<Record<string, string>> {
  const name = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...COMMON_HEADER_NAMES) },
    { weight: 2, arbitrary: fc.constantFrom(...ODD_HEADER_NAMES) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }) },
  )
  const value = anyText(['nginx', 'Apache/2.4.41 (Ubuntu)', 'text/html; charset=utf-8', 'PHPSESSID=abc; path=/'])
  return fc.uniqueArray(fc.tuple(name, value), { maxLength: maxSize, selector: ([n]) => n }).map(dataMap)
}

/**
 * An object whose member names are data: `__proto__` becomes an own member (as JSON.parse
 * makes it), not the prototype.
 */
export function dataMap(entries: Iterable<readonly [string, string]>): Record<string, string> {
  const map: Record<string, string> = {}
  for (const [key, value] of entries) Object.defineProperty(map, key, { value, enumerable: true, writable: true, configurable: true })
  return map
}

/** A summary as scanners write it: an HTTP response head and body excerpt, a finding, or any text. */
export function summaryText(): Arbitrary<string> {
  const head = fc
    .tuple(fc.constantFrom(200, 301, 403, 404, 500), fc.constantFrom('nginx', 'Apache', 'cloudflare'), fc.string({ unit: 'grapheme', maxLength: 30 }))
    .map(([status, server, body]) => `HTTP/1.1 ${status} OK\r\nServer: ${server}\r\nDate: Mon, 02 Jan 2023 03:04:05 GMT\r\n\r\n${body}`)
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant('') },
    { weight: 2, arbitrary: head },
    { weight: 1, arbitrary: fc.constantFrom('Found 3 open indices, 12000 documents', 'Redis without authentication') },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 60 }) },
  )
}
