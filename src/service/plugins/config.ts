/**
 * Plugin descriptions (GET /api/plugins): the configuration's `plugins` member maps a plugin's
 * name (an `event_source`) to one line saying what it finds; a plugin without one is described
 * by a default sentence naming it.
 */

import type { Problem } from '../config-reading.js'

/** The description of a plugin: the configured one, or the default sentence. */
export function describePlugin(name: string, descriptions: ReadonlyMap<string, string>): string {
  return descriptions.get(name) ?? `Events reported by the ${name} plugin.`
}

/** Reads `plugins` ({name: description}) of a parsed configuration document; problems are reported, not thrown. */
export function readPluginDescriptions(doc: Record<string, unknown>, problem: Problem): Map<string, string> {
  const out = new Map<string, string>()
  const value = doc.plugins
  if (value === undefined) return out
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problem('/plugins', 'must be an object mapping a plugin name (event_source) to its description')
    return out
  }
  for (const [name, text] of Object.entries(value)) {
    const at = `/plugins/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`
    if (name === '') problem(at, 'a plugin name cannot be empty')
    else if (typeof text !== 'string' || text.trim() === '') problem(at, 'must be a non-empty string describing the plugin')
    else out.set(name, text)
  }
  return out
}
