/**
 * Every subcommand, in the order `l9kit --help` lists them. Each module is imported only when
 * its command runs (or prints its help), so starting one command loads none of the others'
 * code. The summaries are repeated here for `l9kit --help`; a test keeps them equal to the
 * commands' own.
 */
import type { Command } from '../command.js'

/** A subcommand as the program knows it before loading it. */
export interface CommandEntry {
  name: string
  /** One line for `l9kit --help` (the same as the command's own `summary`). */
  summary: string
  /** Imports the command's module. */
  load(): Promise<Command>
}

export const commands: CommandEntry[] = [
  { name: 'validate', summary: 'Check event documents against the strict or lenient profile', load: async () => (await import('./validate.js')).validate },
  { name: 'normalize', summary: 'Rewrite event documents in canonical form', load: async () => (await import('./normalize.js')).normalize },
  { name: 'filter', summary: 'Print the event documents a search query matches', load: async () => (await import('./filter.js')).filter },
  { name: 'fingerprint', summary: 'Print the event_fingerprint of each document', load: async () => (await import('./fingerprint.js')).fingerprint },
  { name: 'convert', summary: "Convert other tools' output to event documents and back", load: async () => (await import('./convert.js')).convert },
  { name: 'schema', summary: 'Print a generated JSON Schema (draft 2020-12)', load: async () => (await import('./schema.js')).schema },
  { name: 'serve', summary: 'Run the reference lookup service', load: async () => (await import('./serve.js')).serve },
  { name: 'db', summary: "Apply or show the PostgreSQL store's schema migrations", load: async () => (await import('./db.js')).db },
  { name: 'conform', summary: 'Check a lookup API server against the specification', load: async () => (await import('./conform.js')).conform },
  { name: 'hooks', summary: 'Receive hook deliveries; manage hooks and watched resources', load: async () => (await import('./hooks.js')).hooks },
  { name: 'host', summary: 'Print the events a lookup service knows for an IP address', load: async () => (await import('./lookup/host.js')).host },
  { name: 'domain', summary: 'Print the events a lookup service knows for a domain and its subdomains', load: async () => (await import('./lookup/domain.js')).domain },
  { name: 'subdomains', summary: 'Print the subdomains a lookup service knows for a domain', load: async () => (await import('./lookup/subdomains.js')).subdomains },
  { name: 'search', summary: 'Print the events a lookup service finds for a query, every page', load: async () => (await import('./lookup/search.js')).search },
  { name: 'count', summary: 'Print how many events a lookup service finds for a query, with facets', load: async () => (await import('./lookup/count.js')).count },
  { name: 'bulk', summary: "Print a lookup service's bulk export of a query, as it streams", load: async () => (await import('./lookup/bulk.js')).bulk },
  { name: 'plugins', summary: 'Print the plugins a lookup service has seen, with their event counts', load: async () => (await import('./lookup/plugins.js')).plugins },
  { name: 'watch', summary: "Print a server's live stream of new events as JSON Lines", load: async () => (await import('./watch.js')).watch },
]
