/**
 * Every check, in the order they run: shapes first, then what the answers mean, then keys,
 * then the rate limit (its probe drains the limit, so it goes last), then hooks.
 */
import type { Check } from '../check.js'
import { bulkCounts } from './bulk-counts.js'
import { bulkLines } from './bulk-lines.js'
import { bulkMatches } from './bulk-matches.js'
import { contentTypeJson } from './content-type-json.js'
import { domainEventsMatchDomain } from './domain-events-match-domain.js'
import { eventFingerprintFormat } from './event-fingerprint-format.js'
import { eventTimeFormat } from './event-time-format.js'
import { eventTypeRouting } from './event-type-routing.js'
import { hookBody } from './hook-body.js'
import { hookDelivered } from './hook-delivered.js'
import { hookEventTypes, hookLookAlikes, hookSeverityFloor, hookUnwatched } from './hook-filters.js'
import { hookOrder } from './hook-order.js'
import { hookSignatureHeaders, hookSignatureValid } from './hook-signature.js'
import { hostEventsMatchIp } from './host-events-match-ip.js'
import { liveDelivers, liveFilter, liveScope } from './live-delivers.js'
import { bulkOrder, bulkPartition } from './bulk-telling.js'
import { createdReadable, deletedGone } from './lifecycle.js'
import { documentedHeaders, keyRequired, responseTime, unsupportedMethod } from './openapi-answers.js'
import { paramConstraints } from './openapi-params.js'
import { searchOrder, searchPartition } from './search-telling.js'
import { lookupShape } from './lookup-shape.js'
import { no5xx } from './no-5xx.js'
import { pluginCounts } from './plugin-counts.js'
import { pluginFound } from './plugin-found.js'
import { pluginUnknown } from './plugin-unknown.js'
import { pluginsShape } from './plugins-shape.js'
import { searchComplete } from './search-complete.js'
import { searchHostile } from './search-hostile.js'
import { searchPagesDisjoint } from './search-pages.js'
import { searchExcludes, searchFindsKnown, searchResultsMatch } from './search-semantics.js'
import { searchShape } from './search-shape.js'
import { searchCount } from './search-count.js'
import { rateLimitHeader, rateLimitReason, rateLimitWait } from './rate-limit.js'
import { subdomainDistinctIps } from './subdomain-distinct-ips.js'
import { subdomainLastSeen } from './subdomain-last-seen.js'
import { subdomainsHaveEvents } from './subdomains-have-events.js'
import { subdomainsOfDomain } from './subdomains-of-domain.js'
import { subdomainsShape } from './subdomains-shape.js'
import { unknownResource404, unknownResourceEmpty } from './unknown-resource.js'
import { wrongKeyNotElevated, wrongKeyRefused } from './wrong-key.js'

export const CHECKS: readonly Check[] = [
  lookupShape,
  subdomainsShape,
  eventTypeRouting,
  hostEventsMatchIp,
  domainEventsMatchDomain,
  eventTimeFormat,
  eventFingerprintFormat,
  subdomainsOfDomain,
  subdomainDistinctIps,
  subdomainLastSeen,
  subdomainsHaveEvents,
  unknownResourceEmpty,
  unknownResource404,
  // Plugins (docs/specification.md): the list shares one request.
  pluginsShape,
  pluginFound,
  pluginUnknown,
  pluginCounts,
  // Search (GET /search): queries built from what the server returned, the engine as the oracle.
  searchShape,
  searchResultsMatch,
  searchFindsKnown,
  searchExcludes,
  searchPagesDisjoint,
  searchPartition,
  searchOrder,
  searchHostile,
  searchCount,
  // The bulk export (JSON Lines): one set of exports shared by the three.
  bulkLines,
  bulkMatches,
  bulkCounts,
  bulkPartition,
  bulkOrder,
  wrongKeyRefused,
  wrongKeyNotElevated,
  // Generic checks from schema/openapi.json: what any route must refuse.
  keyRequired,
  paramConstraints,
  unsupportedMethod,
  no5xx,
  contentTypeJson,
  rateLimitHeader,
  rateLimitReason,
  rateLimitWait,
  // Hooks: one shared run (hook-scenario.ts), judged from several sides.
  hookDelivered,
  hookSeverityFloor,
  hookEventTypes,
  hookUnwatched,
  hookLookAlikes,
  hookOrder,
  hookBody,
  hookSignatureHeaders,
  hookSignatureValid,
  // The live stream (WebSocket): ingests four events of its own.
  liveDelivers,
  liveScope,
  liveFilter,
  // Search completeness: ingests a tagged set and pages through it.
  searchComplete,
  // Created and deleted objects: readable at once, gone at once.
  createdReadable,
  deletedGone,
  // Over every answer of the run: last.
  documentedHeaders,
  responseTime,
]
