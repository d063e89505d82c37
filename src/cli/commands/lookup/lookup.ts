/**
 * `l9kit host IP` and `l9kit domain NAME`: one lookup (GET /host/:ip, GET /domain/:domain), its
 * events written one per line (services, then leaks), in any of convert's output formats.
 */
import type { Event } from '../../../schema/index.js'
import { parse } from '../../args.js'
import { type Command, EXIT, UsageError } from '../../command.js'
import { EventSink, eventOutput, OUTPUT_OPTIONS, outputHelp } from './output.js'
import { CLIENT_OPTIONS, clientHelp, clientOf, EXIT_HELP, failed, StatusLine } from './shared.js'

const COLUMN = 22

function help(kind: 'host' | 'domain'): string {
  const what =
    kind === 'host'
      ? `Usage: l9kit host IP [options]

Prints the events a lookup service knows for one IP address (GET /host/IP, any spelling of
the address): its services, then its leaks, one event per line.`
      : `Usage: l9kit domain NAME [options]

Prints the events a lookup service knows for a domain name and every name below it (GET
/domain/NAME): their services, then their leaks, one event per line.`
  return `${what} 429s are waited out as the server asks (x-limited-for).

Options:
${outputHelp(COLUMN)}
${clientHelp(COLUMN)}
  -h, --help            show this help

${EXIT_HELP}`
}

/** The command of one kind of lookup. */
export function lookupCommand(kind: 'host' | 'domain'): Command {
  const noun = kind === 'host' ? 'an IP address' : 'a domain name'
  return {
    name: kind,
    summary: kind === 'host' ? 'Print the events a lookup service knows for an IP address' : 'Print the events a lookup service knows for a domain and its subdomains',
    help: help(kind),
    async run(argv, io) {
      const { values, positionals } = parse(kind, argv, { ...CLIENT_OPTIONS, ...OUTPUT_OPTIONS })
      if (positionals.length !== 1) throw new UsageError(`${kind}: give ${noun}, one (l9kit ${kind} ${kind === 'host' ? '192.0.2.1' : 'example.com'})`)
      const status = new StatusLine(io)
      const output = eventOutput(kind, values)
      const client = clientOf(kind, values, io, status)
      const sink = new EventSink(kind, io, output, status)
      let events: Event[]
      try {
        const result = kind === 'host' ? await client.lookupHost(positionals[0]!) : await client.lookupDomain(positionals[0]!)
        events = [...(result.Services ?? []), ...(result.Leaks ?? [])]
      } catch (error) {
        status.clear()
        return failed(kind, io, error)
      }
      for (const event of events) await sink.write(event)
      await sink.flush()
      return sink.events > 0 ? EXIT.ok : EXIT.failed
    },
  }
}
