/** `l9kit watch`: print a server's live stream as JSON Lines, reconnecting with backoff. */
import { ClientError, limitedFor, sleep } from '../../client/index.js'
import { liveMessages, type LiveScope, liveUrl } from '../../client/live.js'
import { printable } from '../../validate/printable.js'
import { oneOf, parse } from '../args.js'
import { type Command, EXIT, UsageError } from '../command.js'
import { untilStopped } from '../stop.js'

const HELP = `Usage: l9kit watch URL [--scope leak|service] [--query Q] [--api-key KEY]

Prints the live stream of a lookup service (WebSocket URL/ws/leak or URL/ws/service) as JSON
Lines: one event document per line, as events are ingested there. URL is the service's base
address (http://HOST:PORT or https://…).

Once the server has accepted the stream (its 101), 'listening on ws://HOST:PORT/ws/SCOPE' is
written to standard error (again after each reconnection): every event stored from then on is
printed. Each event is one line: the server's text when it is one line, else its compact JSON;
characters a terminal acts on (DEL, C1 controls, bidirectional overrides, line separators) are
written as JSON escapes (\u009b), which JSON readers read back as the same text.

When the connection fails or the server closes it (a server cuts off a reader that falls behind:
close code 1013), it connects again after 1 s, doubling up to 30 s while it keeps failing; a 429
waits as x-limited-for says, at most 1 hour. A refusal that waiting cannot change (400, 401,
403, 404) ends it. Events stored while it is not connected are not sent again (the stream is
"from now on").

Options:
  --scope leak|service  which events (default leak)
  --query Q             the stream's filter (q), in the server's query language ('*' = all)
  --api-key KEY         the key to send (default: $L9KIT_API_KEY; the reference service
                        streams to pro keys only)
  -h, --help            show this help

Stops cleanly on SIGINT or SIGTERM.
Exit status: 0 stopped, 2 usage error or the server refused the stream.`

const FIRST_WAIT_MS = 1_000
const MAX_WAIT_MS = 30_000
/** Longest wait a 429's x-limited-for is taken at: a server may say days (or more than a timer holds). */
export const MAX_LIMITED_WAIT_MS = 3_600_000

export const watch: Command = {
  name: 'watch',
  summary: "Print a server's live stream of new events as JSON Lines",
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parse('watch', argv, {
      scope: { type: 'string' },
      query: { type: 'string' },
      'api-key': { type: 'string' },
    })
    if (positionals.length !== 1) throw new UsageError('watch: give the service URL, one (l9kit watch http://127.0.0.1:8080 --scope leak)')
    const base = positionals[0]!
    if (!/^https?:\/\/[^/]/.test(base)) throw new UsageError(`watch: the URL must start with http:// or https:// (got '${base}')`)
    const scope = oneOf('watch', 'scope', values.scope, ['leak', 'service'] as const, 'leak') as LiveScope
    const apiKey = values['api-key'] ?? (io.env.L9KIT_API_KEY || undefined)
    const stop = new AbortController()
    void untilStopped(io).then(() => stop.abort())
    const query = values.query === undefined ? {} : { query: values.query }
    let wait = FIRST_WAIT_MS
    // The server sends the 101 once the subscription is in place (docs/service.md, "Live stream").
    const onOpen = () => {
      wait = FIRST_WAIT_MS
      io.stderr.write(`listening on ${printable(liveUrl(base, scope, values.query))}\n`)
    }
    while (!stop.signal.aborted) {
      try {
        for await (const message of liveMessages(base, apiKey, scope, { ...query, signal: stop.signal, onOpen })) {
          wait = FIRST_WAIT_MS
          if (!io.stdout.write(`${eventLine(message.text, message.event)}\n`)) await new Promise((resolve) => io.stdout.once('drain', resolve))
        }
        if (stop.signal.aborted) break
        io.stderr.write(`l9kit watch: the server ended the stream; connecting again in ${wait / 1000} s\n`)
      } catch (error) {
        if (!(error instanceof ClientError)) throw error
        const status = error.status ?? 0
        if (error.kind === 'http' && status >= 400 && status < 500 && status !== 408 && status !== 429) {
          io.stderr.write(`l9kit watch: ${printable(error.message)}\n`)
          return EXIT.usage
        }
        if (status === 429) wait = Math.min(Math.max(wait, limitedFor(error.details.response!) ?? wait), MAX_LIMITED_WAIT_MS)
        io.stderr.write(`l9kit watch: ${printable(error.message)}; connecting again in ${wait / 1000} s\n`)
      }
      try {
        await sleep(wait, stop.signal)
      } catch {
        break
      }
      wait = Math.min(wait * 2, MAX_WAIT_MS)
    }
    return EXIT.ok
  },
}

/**
 * One line for an event: the server's text when it is on one line (JSON strings hold no raw
 * line break, so one outside them is layout), else the event's compact JSON; then characters a
 * terminal acts on escaped, inside strings (the only place a JSON text can hold them), so the
 * line is still JSON with the same value.
 */
export function eventLine(text: string, event: unknown): string {
  return printable(/[\r\n]/.test(text) ? JSON.stringify(event) : text)
}
