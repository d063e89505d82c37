/** Aggregations: a resource's events made into one document (the bulk export's lines). */
export { aggregate, type AggregateOptions, FRESH_WINDOW, type SeenItem } from './aggregate.js'
export { type Resource as AggregateResource, resourceOf } from './resource.js'
