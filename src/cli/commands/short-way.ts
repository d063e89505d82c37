/**
 * When a command's own loop (one thread) loads its short way for canonical lines
 * (validate-canonical.ts, filter-canonical.ts): building the event's canonical pattern costs
 * ~16 ms, which a short command should not pay. A file this large takes the short way from its
 * first line; other inputs (standard input) once they have this many records.
 */
export const SHORT_WAY_BYTES = 1 << 20
export const SHORT_WAY_RECORDS = 1000
