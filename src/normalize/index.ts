/**
 * The normalisers: small, idempotent, one per kind of value (values.ts, lists.ts, headers.ts),
 * composed by the event's shape (shape.ts) into normalize(); serializeEvent() writes the result.
 */
export { type Escape, type FingerprintMode, type HeaderCase, type HeaderOrder, type NormalizeOptions, type WriteOptions } from './context.js'
export { isCanonical, normalize, type NormalizeResult } from './normalize.js'
export { eventSerializer, serializeEvent } from './serialize.js'
export { isCanonicalText, normalizeParsed, normalizeText, type NormalizeTextResult } from './text.js'
export { resolveOptions } from './context.js'
export { type NormalizedRecord, normalizeRecords, type StreamOptions } from './stream.js'
