/**
 * The plugins routes' answers: `GET /api/plugins` (every plugin with its event counts) and
 * `GET /api/plugins/:name` (`{name, description}` only, as LeakIX's Python client reads it).
 */
import Type, { type Static } from 'typebox'
import { int, text } from './fields.js'

const name = () => text('Name', 'The plugin: an `event_source` value seen in stored events.')
const description = () => text('Description', 'What the plugin finds, from the service configuration; a default sentence when it has none.')
const count = (window: string) =>
  int(`Events (${window})`, `Distinct events of the plugin stored with a \`time\` in the last ${window} (docs/service.md: how the windows are counted).`)

export const Plugin = Type.Object({ name: name(), description: description() }, { title: 'Plugin', description: 'Answer of GET /api/plugins/:name.' })

export const PluginStats = Type.Object(
  {
    name: name(),
    description: description(),
    event_count1h: count('hour'),
    event_count24h: count('24 hours'),
    event_count7d: count('7 days'),
  },
  { title: 'Plugin with counts', description: 'One entry of GET /api/plugins.' },
)

export const Plugins = Type.Array(PluginStats, { title: 'Plugins', description: 'Answer of GET /api/plugins: every plugin seen, by name in byte order.' })

export { PLUGIN_NOT_FOUND } from './plugin-not-found.js'

export type Plugin = Static<typeof Plugin>
export type PluginStats = Static<typeof PluginStats>
export type Plugins = Static<typeof Plugins>
