/** `l9kit plugins [NAME]`: the plugins a lookup service has seen (GET /api/plugins), or one (GET /api/plugins/NAME). */
import type { Plugin, PluginStats } from '../../../schema/index.js'
import { oneOf, parse } from '../../args.js'
import { type Command, EXIT, UsageError } from '../../command.js'
import { columns, JsonSink } from './output.js'
import { CLIENT_OPTIONS, clientHelp, clientOf, EXIT_HELP, failed, StatusLine } from './shared.js'

const HELP = `Usage: l9kit plugins [NAME] [options]

Without NAME, prints every plugin (event source) a lookup service has seen, each with its
description and the events it reported in the last hour, 24 hours and 7 days (GET
/api/plugins). With NAME, prints that plugin's name and description (GET /api/plugins/NAME);
a plugin the server does not know (its 404 "Plugin not found") is said so, exit status 1.

Options:
  --to json|human       json: one JSON object per line, as the server sent them (the
                        default); human: aligned columns (the list) or two lines (one plugin)
${clientHelp(24)}
  -h, --help            show this help

${EXIT_HELP}`

export const plugins: Command = {
  name: 'plugins',
  summary: 'Print the plugins a lookup service has seen, with their event counts',
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parse('plugins', argv, { ...CLIENT_OPTIONS, to: { type: 'string' } })
    if (positionals.length > 1) throw new UsageError('plugins: give at most one plugin NAME')
    const to = oneOf('plugins', 'to', values.to, ['json', 'human'] as const, 'json')
    const status = new StatusLine(io)
    const client = clientOf('plugins', values, io, status)
    const name = positionals[0]
    let list: PluginStats[] = []
    let one: Plugin | null = null
    try {
      if (name === undefined) list = await client.plugins()
      else one = await client.plugin(name)
    } catch (error) {
      status.clear()
      return failed('plugins', io, error)
    }
    const sink = new JsonSink(io)
    if (name !== undefined && one === null) {
      io.stderr.write(`l9kit plugins: the server knows no plugin ${JSON.stringify(name)}\n`)
      return EXIT.failed
    }
    if (one !== null) {
      if (to === 'json') await sink.write(one)
      else for (const line of columns([['name:', one.name], ['description:', one.description]])) await sink.text(line)
    } else if (to === 'json') for (const p of list) await sink.write(p)
    else if (list.length > 0) {
      const rows = list.map((p) => [p.name, String(p.event_count1h), String(p.event_count24h), String(p.event_count7d), p.description])
      for (const line of columns([['PLUGIN', '1H', '24H', '7D', 'DESCRIPTION'], ...rows])) await sink.text(line)
    }
    await sink.flush()
    return one !== null || list.length > 0 ? EXIT.ok : EXIT.failed
  },
}
