/** Public API of l9kit. */
export * from './schema/index.js'
