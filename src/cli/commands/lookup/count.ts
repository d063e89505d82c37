/**
 * `l9kit count QUERY`: how many events a query matches, and facets (GET /search/count, our
 * extension). A server without the route (LeakIX's) is told so; with `--slow` the count is
 * made by reading every page of GET /search, the facets counted here by the facet table the
 * reference service uses (src/query/facets.ts), so both ways give the same answer.
 */
import type { LookupClient, SearchScope } from '../../../client/index.js'
import type { SearchCount } from '../../../schema/index.js'
import { printable } from '../../../validate/printable.js'
import { oneOf } from '../../args.js'
import { type Command, EXIT, type Io, UsageError } from '../../command.js'
import { columns, JsonSink } from './output.js'
import { CLIENT_OPTIONS, clientHelp, clientOf, EXIT_HELP, failed, parseWithQuery, noRoute, StatusLine } from './shared.js'

const HELP = `Usage: l9kit count QUERY [--scope leak|service] [--facet LIST] [--slow] [options]

Prints how many events a lookup service finds for QUERY (the query language of
docs/search.md), and with --facet the most frequent values of some fields among them
(GET /search/count, an extension of the reference service; IVRE's /top and Shodan's facets
do the same). A query the server refuses is shown with a caret under the offending term.

A server without that route (LeakIX's API) is said so; with --slow the events are then
counted by reading every page of GET /search (one request a page, paced by --rate), and the
facets counted here the way the reference service counts them. A plan's page cap (403)
ends such a count with the number counted so far as a lower bound.

Options:
  --scope leak|service  which events (default leak)
  --facet LIST          facets, separated by commas, each optionally :N for how many values
                        (default 10, at most 100): port, plugin, severity (leaks), country,
                        asn, ip, host, protocol, transport, tags, software, http.status,
                        ssl.version, org, city, leak.type, leak.stage (leaks); example
                        --facet port,country:5
  --slow                when the server has no count route, count by reading every page
  --to json|human       json: {"total": N, "facets": {…}} on one line (the default); human:
                        the total, then each facet's values and counts
${clientHelp(24)}
  -h, --help            show this help

${EXIT_HELP} (found: the total is above 0)`

export const count: Command = {
  name: 'count',
  summary: 'Print how many events a lookup service finds for a query, with facets',
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseWithQuery('count', argv, { ...CLIENT_OPTIONS, scope: { type: 'string' }, facet: { type: 'string', multiple: true }, slow: { type: 'boolean' }, to: { type: 'string' } })
    if (positionals.length !== 1) throw new UsageError("count: give the QUERY, one argument (quote it: l9kit count '+port:443' --facet country)")
    const q = positionals[0]!
    const scope = oneOf('count', 'scope', values.scope, ['leak', 'service'] as const, 'leak') as SearchScope
    const to = oneOf('count', 'to', values.to, ['json', 'human'] as const, 'json')
    const facets = (values.facet ?? []).join(',')
    const status = new StatusLine(io)
    const client = clientOf('count', values, io, status)
    let result: SearchCount
    try {
      result = await client.count(q, { scope, facets })
    } catch (error) {
      status.clear()
      if (!noRoute(error)) return failed('count', io, error, { text: q, scope })
      if (values.slow !== true) {
        io.stderr.write(
          `l9kit count: ${client.baseUrl} has no GET /search/count (it answered ${(error as { status?: number }).status}): counting is an extension of the reference service, which LeakIX's API does not have. ` +
            `Add --slow to count by reading every page of GET /search (one request a page).\n`,
        )
        return EXIT.usage
      }
      const slow = await countByPaging(client, q, scope, facets, io, status)
      if (typeof slow === 'number') return slow
      result = slow
    }
    status.clear()
    const sink = new JsonSink(io)
    if (to === 'json') await sink.write(result)
    else for (const line of humanCount(result)) await sink.text(line)
    await sink.flush()
    return result.total > 0 ? EXIT.ok : EXIT.failed
  },
}

/** The readable form: the total, then per facet a line with its name and its values in columns. */
function humanCount(result: SearchCount): string[] {
  const lines = [`${result.total} ${result.total === 1 ? 'event matches' : 'events match'}`]
  for (const [name, list] of Object.entries(result.facets ?? {})) {
    lines.push('', `${printable(name)}:`)
    if (list.length === 0) lines.push('  (no values)')
    else lines.push(...columns(list.map((v) => [v.value, String(v.count)])).map((l) => `  ${l}`))
  }
  return lines
}

/** Counts by reading every page of GET /search; the exit status when that fails. */
async function countByPaging(client: LookupClient, q: string, scope: SearchScope, facetText: string, io: Io, status: StatusLine): Promise<SearchCount | number> {
  const { FacetError, parseFacets, topValues } = await import('../../../query/facets.js')
  let asked
  try {
    asked = parseFacets(facetText, scope)
  } catch (error) {
    if (error instanceof FacetError) throw new UsageError(`count: --facet: ${error.message}`)
    throw error
  }
  const tallies = asked.map(() => new Map<string, number>())
  let total = 0
  let page = 0
  try {
    status.show('counting by pages: page 0…')
    for await (const { events } of client.searchPages(q, { scope, shortPageEnds: true })) {
      page++
      status.show(`counting by pages: page ${page}, ${total + events.length} events so far…`)
      for (const event of events) {
        total++
        asked.forEach(({ facet }, i) => {
          for (const v of facet.values(event as unknown as Record<string, unknown>)) tallies[i]!.set(v, (tallies[i]!.get(v) ?? 0) + 1)
        })
      }
    }
  } catch (error) {
    status.clear()
    const code = await failed('count', io, error, { text: q, scope })
    io.stderr.write(`l9kit count: at least ${total} ${total === 1 ? 'event matches' : 'events match'} (counted on the ${page} ${page === 1 ? 'page' : 'pages'} read before that)\n`)
    return code
  }
  const result: SearchCount = { total }
  if (asked.length > 0) result.facets = Object.fromEntries(asked.map(({ facet, limit }, i) => [facet.name, topValues(facet, tallies[i]!, limit)]))
  return result
}
