/** Broken: the bulk export drops `-` terms from the query, so excluded events come back. */
import { CORRECT, startFake } from '../fake/server.js'

// The split by a telling term (bulk-partition) sees it too: -term is read as nothing, so the halves overlap.
export const meant = ['bulk-matches', 'bulk-partition']
export const start = () => startFake({ bulk: (route, q, events) => CORRECT.bulk(route, q.replace(/(^|\s)-\S+/g, ' ').trim(), events) })
