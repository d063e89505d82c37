/**
 * The stream commands that have a one-file CommonJS build with a V8 code cache (dist/fast/, made
 * by tsup.config.ts and code-cache.ts). Without imports: main.ts reads it on every start.
 */
export const FAST_COMMANDS = ['validate', 'normalize', 'fingerprint', 'filter', 'convert'] as const

/** The file suffix of a script's code cache, beside the script. */
export const CACHE_SUFFIX = '.v8cache'
