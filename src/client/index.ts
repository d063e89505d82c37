/** Typed client of the lookup API (see docs/client.md). */
export { type CallOptions, type ClientOptions, createClient, limitedFor, LookupClient, segment } from './client.js'
export { ceilMillis, type DurationResult, GO_DURATION_UNITS, headerText, parseDurationHeader, parseGoDuration } from './duration.js'
export { ClientError, type ClientErrorKind } from './errors.js'
export type { Method, RawResponse } from './http.js'
export { Pacer, type Rate } from './pacer.js'
export { sleep } from './sleep.js'
export { HookApiError, HookClient, type IngestSummary } from './hooks.js'
export type { LiveMessage, LiveOptions, LiveScope } from './live.js'
