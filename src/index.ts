/**
 * Public API of l9kit. Each concern is one module; the CLI (src/cli) is not part of it.
 * Conformance names that clash with the converters' (`Problem`) are exported under
 * the `conformance` namespace; the query engine is the `query` namespace.
 */
export * from './schema/index.js'
export * from './validate/index.js'
export * from './jsonl/index.js'
export * from './time/index.js'
export * from './fingerprint/index.js'
export * as query from './query/index.js'
export * from './normalize/index.js'
export * from './event/index.js'
export * from './convert/index.js'
export * from './client/index.js'
export * as arbitraries from './conformance/arbitraries.js'
export * as conformance from './conformance/index.js'
export * from './service/index.js'
