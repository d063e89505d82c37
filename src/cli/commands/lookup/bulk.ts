/**
 * `l9kit bulk QUERY`: the bulk export (GET /bulk/search for leaks, as aggregations; GET
 * /bulk/service for services, as events), written as the lines arrive.
 */
import type { SearchScope } from '../../../client/index.js'
import { oneOf } from '../../args.js'
import { type Command, EXIT, UsageError } from '../../command.js'
import { EventSink, eventOutput, JsonSink, OUTPUT_OPTIONS, outputHelp } from './output.js'
import { CLIENT_OPTIONS, clientHelp, clientOf, EXIT_HELP, failed, parseWithQuery, StatusLine } from './shared.js'

const COLUMN = 24
/** Lines written are flushed at least this often, so a slow export's lines show as they come. */
const FLUSH_MS = 200

const HELP = `Usage: l9kit bulk QUERY [--scope leak|service] [options]

Prints every match of QUERY from a lookup service's bulk export, as the server streams it:
with --scope leak (the default) one aggregation per resource (an address, or a host name)
holding its matching leaks, as JSON Lines (GET /bulk/search); with --scope service every
matching service event (GET /bulk/service), in any --to format. Memory stays flat however long
the export; stopping (Ctrl-C, or the reader of a pipe going away) closes the connection, and the
server stops its query. The reference service exports to pro keys only.

Options:
  --scope leak|service  which export (default leak)
${outputHelp(COLUMN)}
                        (--to, --fields and --csv-raw apply to --scope service)
${clientHelp(COLUMN)}
  -h, --help            show this help

${EXIT_HELP}`

export const bulk: Command = {
  name: 'bulk',
  summary: "Print a lookup service's bulk export of a query, as it streams",
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseWithQuery('bulk', argv, { ...CLIENT_OPTIONS, ...OUTPUT_OPTIONS, scope: { type: 'string' } })
    if (positionals.length !== 1) throw new UsageError("bulk: give the QUERY, one argument (quote it; '*' for everything)")
    const q = positionals[0]!
    const scope = oneOf('bulk', 'scope', values.scope, ['leak', 'service'] as const, 'leak') as SearchScope
    if (scope === 'leak' && (values.to ?? 'l9') !== 'l9') throw new UsageError('bulk: --to applies to --scope service: leaks come as aggregations, written as JSON Lines')
    const status = new StatusLine(io)
    const output = eventOutput('bulk', values)
    const client = clientOf('bulk', values, io, status)
    const events = new EventSink('bulk', io, output, status)
    const lines = new JsonSink(io)
    const flush = () => (scope === 'leak' ? lines.flush() : events.flush())
    // Lines held in the batch go out at least every FLUSH_MS, also while the server is quiet.
    const timer = setInterval(() => void flush().catch(() => undefined), FLUSH_MS)
    try {
      if (scope === 'leak') for await (const aggregation of client.bulkSearch(q)) await lines.write(aggregation)
      else for await (const event of client.bulkServices(q)) await events.write(event)
    } catch (error) {
      await flush()
      return failed('bulk', io, error, { text: q, scope })
    } finally {
      clearInterval(timer)
    }
    await flush()
    return (scope === 'leak' ? lines.lines : events.events) > 0 ? EXIT.ok : EXIT.failed
  },
}
