/** `l9kit search QUERY`: every event a query matches, page after page (GET /search), as a lookup's events are written. */
import { type SearchScope } from '../../../client/index.js'
import { oneOf, positiveInt } from '../../args.js'
import { type Command, EXIT, UsageError } from '../../command.js'
import { EventSink, eventOutput, OUTPUT_OPTIONS, outputHelp } from './output.js'
import { CLIENT_OPTIONS, clientHelp, clientOf, EXIT_HELP, failed, parseWithQuery, StatusLine } from './shared.js'

const COLUMN = 24

const HELP = `Usage: l9kit search QUERY [--scope leak|service] [--limit N] [--pages N] [options]

Prints the events a lookup service finds for QUERY (GET /search, the query language of
docs/search.md, such as '+port:443 -country:Germany'), newest first, reading page after page
until an empty one (as LeakIX's clients do) or one shorter than those before it (the last),
--pages pages or --limit events. Each page is
one request, paced by --rate; 429s are waited out as the server asks (x-limited-for), with a
line saying so on a terminal. A query the server refuses is shown with a caret under the
offending term, as 'l9kit filter' shows it. A page beyond the key's plan (403) ends the
search with the server's reason, after the events already written.

Options:
  --scope leak|service  which events (default leak)
  --limit N             write at most N events
  --pages N             read at most N pages
  --from-page N         the first page read (default 0)
${outputHelp(COLUMN)}
${clientHelp(COLUMN)}
  -h, --help            show this help

${EXIT_HELP}`

export const search: Command = {
  name: 'search',
  summary: 'Print the events a lookup service finds for a query, every page',
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseWithQuery('search', argv, {
      ...CLIENT_OPTIONS,
      ...OUTPUT_OPTIONS,
      scope: { type: 'string' },
      limit: { type: 'string' },
      pages: { type: 'string' },
      'from-page': { type: 'string' },
    })
    if (positionals.length !== 1) throw new UsageError("search: give the QUERY, one argument (quote it: l9kit search '+port:443 -country:FR')")
    const q = positionals[0]!
    const scope = oneOf('search', 'scope', values.scope, ['leak', 'service'] as const, 'leak') as SearchScope
    const limit = positiveInt('search', 'limit', values.limit, Number.POSITIVE_INFINITY)
    const pages = positiveInt('search', 'pages', values.pages, Number.POSITIVE_INFINITY)
    const from = values['from-page'] === undefined ? 0 : Number(values['from-page'])
    if (!Number.isSafeInteger(from) || from < 0 || !/^\d+$/.test(values['from-page'] ?? '0')) throw new UsageError(`search: --from-page must be an integer ≥ 0 (got '${values['from-page']}')`)
    const status = new StatusLine(io)
    const output = eventOutput('search', values)
    const client = clientOf('search', values, io, status)
    const sink = new EventSink('search', io, output, status)
    try {
      status.show(`page ${from}…`)
      for await (const { page, events } of client.searchPages(q, { scope, fromPage: from, maxPages: pages, shortPageEnds: true })) {
        for (const event of events.slice(0, limit - sink.events)) await sink.write(event)
        await sink.flush()
        if (sink.events >= limit) break
        status.show(`page ${page + 1}: ${sink.events} events so far…`)
      }
    } catch (error) {
      await sink.flush()
      const code = await failed('search', io, error, { text: q, scope })
      if (sink.events > 0) io.stderr.write(`l9kit search: ${sink.events} events were written before that\n`)
      return code
    }
    await sink.flush()
    return sink.events > 0 ? EXIT.ok : EXIT.failed
  },
}
