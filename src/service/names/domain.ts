/** Moved to src/names (the query engine uses it too): re-exported for the service's imports. */
export * from '../../names/domain.js'
