/** What the `l9kit hooks` subcommands share: the service options, errors as one line, waiting for a stop. */
import { ClientError, HookApiError, HookClient } from '../../../client/index.js'
import { EXIT, type Io, UsageError } from '../../command.js'

/** Where the service is when neither --base-url nor L9KIT_BASE_URL says: `l9kit serve`'s default address. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080'

/** Options every API subcommand takes. */
export const SERVICE_OPTIONS = {
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  json: { type: 'boolean' },
} as const

/** A client for the service the options name; a missing key or a bad URL is a usage error. */
export function hookClient(command: string, values: { 'base-url'?: string; 'api-key'?: string }, io: Io): HookClient {
  const baseUrl = values['base-url'] ?? nonEmpty(io.env.L9KIT_BASE_URL) ?? DEFAULT_BASE_URL
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    throw new UsageError(`${command}: --base-url must be an http:// or https:// URL (got '${baseUrl}')`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${command}: --base-url must be an http:// or https:// URL (got '${baseUrl}')`)
  const apiKey = values['api-key'] ?? nonEmpty(io.env.L9KIT_API_KEY)
  if (apiKey === undefined) throw new UsageError(`${command}: --api-key is required (or env L9KIT_API_KEY); hooks need a pro plan key`)
  return new HookClient({ baseUrl, apiKey, rate: 'auto', maxRetries: 3, ...(io.stopSignal ? { signal: io.stopSignal } : {}) })
}

/**
 * Runs one API call: a refusal prints the service's `title: description` and gives exit 1;
 * no answer at all (refused connection, timeout) gives exit 2, like an unreachable server in conform.
 */
export async function apiCall(command: string, io: Io, call: () => Promise<void>): Promise<number> {
  try {
    await call()
    return EXIT.ok
  } catch (error) {
    if (error instanceof HookApiError) {
      io.stderr.write(`l9kit ${command}: the service answered ${error.status}: ${error.title}${error.description ? `: ${error.description}` : ''}\n`)
      return EXIT.failed
    }
    if (error instanceof ClientError) {
      const unreachable = error.kind === 'network' || error.kind === 'timeout' || error.kind === 'aborted'
      io.stderr.write(`l9kit ${command}: ${error.message}\n`)
      return unreachable ? EXIT.usage : EXIT.failed
    }
    throw error
  }
}

export const nonEmpty = (value: string | undefined) => (value === undefined || value === '' ? undefined : value)

/** Refuses stray arguments. */
export function noPositionals(command: string, positionals: string[]): void {
  if (positionals.length > 0) throw new UsageError(`${command}: unexpected argument '${positionals[0]}' (see 'l9kit hooks --help')`)
}

/** The id arguments (at least one; `exactly` fixes how many). */
export function needIds(command: string, positionals: string[], what: string, exactly?: number): string[] {
  if (positionals.length === 0) throw new UsageError(`${command}: give the ${what} id (see 'l9kit hooks --help')`)
  if (exactly !== undefined && positionals.length !== exactly) throw new UsageError(`${command}: takes ${exactly} ${what} id, got ${positionals.length}`)
  return positionals
}
