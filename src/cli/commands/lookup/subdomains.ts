/** `l9kit subdomains NAME`: the names a lookup service knows below a domain (GET /api/subdomains/NAME). */
import { csvField } from '../../../convert/output/index.js'
import { oneOf, parse } from '../../args.js'
import { type Command, EXIT, UsageError } from '../../command.js'
import { columns, JsonSink } from './output.js'
import { CLIENT_OPTIONS, clientHelp, clientOf, EXIT_HELP, failed, StatusLine } from './shared.js'

const HELP = `Usage: l9kit subdomains NAME [options]

Prints the names a lookup service knows below a domain (GET /api/subdomains/NAME), each with
the number of distinct addresses seen for it and when it was last seen, in the server's order
(the reference service: most recently seen first). The plan of the key decides how many.

Options:
  --to json|human|csv   json: one JSON object per line, as the server sent them (the
                        default); human: aligned columns; csv: a header row, then a row each
${clientHelp(24)}
  -h, --help            show this help

${EXIT_HELP}`

export const subdomains: Command = {
  name: 'subdomains',
  summary: 'Print the subdomains a lookup service knows for a domain',
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parse('subdomains', argv, { ...CLIENT_OPTIONS, to: { type: 'string' } })
    if (positionals.length !== 1) throw new UsageError('subdomains: give a domain name, one (l9kit subdomains example.com)')
    const to = oneOf('subdomains', 'to', values.to, ['json', 'human', 'csv'] as const, 'json')
    const status = new StatusLine(io)
    const client = clientOf('subdomains', values, io, status)
    let entries
    try {
      entries = await client.subdomains(positionals[0]!)
    } catch (error) {
      status.clear()
      return failed('subdomains', io, error)
    }
    const sink = new JsonSink(io)
    if (to === 'json') for (const e of entries) await sink.write(e)
    else if (to === 'csv') {
      for (const line of ['subdomain,distinct_ips,last_seen', ...entries.map((e) => `${csvField(e.subdomain)},${e.distinct_ips},${e.last_seen}`)]) await sink.text(`${line}\r`)
    } else if (entries.length > 0) {
      for (const line of columns([['SUBDOMAIN', 'IPS', 'LAST SEEN'], ...entries.map((e) => [e.subdomain, String(e.distinct_ips), e.last_seen])])) await sink.text(line)
    }
    await sink.flush()
    return entries.length > 0 ? EXIT.ok : EXIT.failed
  },
}
