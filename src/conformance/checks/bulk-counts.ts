/**
 * Each aggregation of GET /bulk/search agrees with its events: `leak_event_count` is the number of
 * its leak events, `leak_count` at most that (and at least 1 when there is one), every event's
 * port is in `open_ports` and its source in `plugins`; a resource comes once per export.
 */
import { type Check, fail, pass, skip } from '../check.js'
import { BULK_NEEDS_STATE, bulkAnswer } from './bulk-lib.js'
import { plural, problemAt } from './lib.js'

type Obj = Record<string, unknown>
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)

/** What is wrong with one aggregation, or undefined. */
export function aggregationProblem(a: Obj): string | undefined {
  const events = Array.isArray(a.events) ? a.events.filter(isObject) : []
  const leaks = events.filter((e) => e.event_type === 'leak').length
  if (a.leak_event_count !== leaks) return `leak_event_count is ${String(a.leak_event_count)}, but it holds ${plural(leaks, 'leak event')}`
  const count = a.leak_count
  if (typeof count !== 'number' || count > leaks || (leaks > 0 && count < 1)) return `leak_count is ${String(count)} for ${plural(leaks, 'leak event')} (it counts distinct leaks among them)`
  const ports = new Set(Array.isArray(a.open_ports) ? a.open_ports : [])
  const port = events.find((e) => e.port !== '' && !ports.has(e.port))
  if (port) return `an event has port ${JSON.stringify(port.port)}, which open_ports (${JSON.stringify([...ports])}) lacks`
  const plugins = new Set(Array.isArray(a.plugins) ? a.plugins : [])
  const source = events.find((e) => e.event_source !== '' && !plugins.has(e.event_source))
  if (source) return `an event comes from ${JSON.stringify(source.event_source)}, which plugins (${JSON.stringify([...plugins])}) lacks`
  return undefined
}

export const bulkCounts: Check = {
  id: 'bulk-counts',
  description: 'Each aggregation of GET /bulk/search agrees with its events (leak_event_count, leak_count, open_ports, plugins), and names a resource once per export',
  spec: "LeakIX's API: Aggregation; docs/service.md: Aggregations",
  needsState: BULK_NEEDS_STATE,
  async run(ctx) {
    const answer = await bulkAnswer(ctx)
    if (!answer.ok) return skip(answer.skip)
    let judged = 0
    for (const read of answer.reads) {
      if (read.route !== 'search') continue
      const seen = new Set<string>()
      for (const [i, line] of read.lines.entries()) {
        if (!isObject(line)) continue // bulk-lines judges the shape
        const where = `line ${i + 1} of /bulk/search?q=${read.q} (resource ${JSON.stringify(line.resource_id)})`
        const problem = aggregationProblem(line)
        if (problem) return fail(problemAt(read.response, `${where}: ${problem}`))
        const id = String(line.resource_id)
        if (seen.has(id)) return fail(problemAt(read.response, `${where}: the resource came on an earlier line too: one aggregation per resource`))
        seen.add(id)
        judged++
      }
    }
    return pass(plural(judged, 'aggregation'))
  },
}
