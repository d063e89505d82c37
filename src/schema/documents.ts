/** The schema documents l9kit publishes under `schema/`, by short name. */
import { Aggregation } from './aggregation.js'
import { ErrorBody, LookupResult, Subdomains } from './api.js'
import { ConformCheck, ConformExample, ConformReport } from './conform-report.js'
import { Event, EVENT_PARTS, LENIENT_OPTIONAL } from './event.js'
import { type DocumentSpec, type JsonSchema, toDocument } from './json-schema.js'
import { Plugin, Plugins, PluginStats } from './plugins.js'
import { FacetValue, SearchCount } from './search-count.js'

const EVENT_DESCRIPTION =
  'One observation of a host, service or leak, in the common format of recon tools and the lookup API.'

const AGGREGATION_DESCRIPTION =
  'One resource (an address, or a host name when its events carry no address) with its events nested: one line of GET /bulk/search.'

export const DOCUMENT_SPECS = {
  event: {
    file: 'event.schema.json',
    title: 'Event document (strict)',
    description: `${EVENT_DESCRIPTION} Strict profile: the canonical form, every member present with its exact type.`,
    root: Event,
    parts: EVENT_PARTS,
    profile: 'strict',
  },
  'event.lenient': {
    file: 'event.lenient.schema.json',
    title: 'Event document (lenient)',
    description: `${EVENT_DESCRIPTION} Lenient profile: what real tools emit (missing members, null arrays and maps, numbers as strings, any time offset).`,
    root: Event,
    parts: EVENT_PARTS,
    profile: 'lenient',
    lenientOptional: LENIENT_OPTIONAL,
  },
  'lookup-result': {
    file: 'lookup-result.schema.json',
    title: 'Lookup result',
    description: 'Answer of GET /domain/:domain and GET /host/:ip.',
    root: LookupResult,
    parts: { event: Event, ...EVENT_PARTS },
    profile: 'strict',
  },
  subdomains: {
    file: 'subdomains.schema.json',
    title: 'Subdomains',
    description: 'Answer of GET /api/subdomains/:domain.',
    root: Subdomains,
    parts: {},
    profile: 'strict',
  },
  aggregation: {
    file: 'aggregation.schema.json',
    title: 'Aggregation (strict)',
    description: `${AGGREGATION_DESCRIPTION} Strict profile: every member present with its exact type, events in the strict profile.`,
    root: Aggregation,
    parts: { event: Event, ...EVENT_PARTS },
    profile: 'strict',
  },
  'aggregation.lenient': {
    file: 'aggregation.lenient.schema.json',
    title: 'Aggregation (lenient)',
    description: `${AGGREGATION_DESCRIPTION} Lenient profile: members may be missing, events in the lenient profile.`,
    root: Aggregation,
    parts: { event: Event, ...EVENT_PARTS },
    profile: 'lenient',
  },
  plugins: {
    file: 'plugins.schema.json',
    title: 'Plugins',
    description: 'Answer of GET /api/plugins: every plugin seen, with its event counts.',
    root: Plugins,
    parts: { plugin: PluginStats },
    profile: 'strict',
  },
  plugin: {
    file: 'plugin.schema.json',
    title: 'Plugin',
    description: 'Answer of GET /api/plugins/:name.',
    root: Plugin,
    parts: {},
    profile: 'strict',
  },
  'search-count': {
    file: 'search-count.schema.json',
    title: 'Search count',
    description: 'Answer of GET /search/count: how many events a query matches, and the top values of the facets asked for.',
    root: SearchCount,
    parts: { 'facet-value': FacetValue },
    profile: 'strict',
  },
  error: {
    file: 'error.schema.json',
    title: 'Error body',
    description: 'Body of the reference service for every status but 200.',
    root: ErrorBody,
    parts: {},
    profile: 'strict',
  },
  'conform-report': {
    file: 'conform-report.schema.json',
    title: 'Conformance report',
    description: 'What `l9kit conform --report json:FILE` writes.',
    root: ConformReport,
    parts: { check: ConformCheck, example: ConformExample },
    profile: 'strict',
  },
} satisfies Record<string, DocumentSpec>

export type DocumentName = keyof typeof DOCUMENT_SPECS
export const DOCUMENT_NAMES = Object.keys(DOCUMENT_SPECS) as DocumentName[]

const cache = new Map<DocumentName, JsonSchema>()

/** The JSON Schema document of that name, built once. */
export function schemaDocument(name: DocumentName): JsonSchema {
  let doc = cache.get(name)
  if (!doc) {
    doc = toDocument(DOCUMENT_SPECS[name])
    cache.set(name, doc)
  }
  return doc
}
