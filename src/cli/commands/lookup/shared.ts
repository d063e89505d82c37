/**
 * What the client commands (host, domain, subdomains, search, count, bulk, plugins) share: the
 * options that reach a server (`--base-url`, `--api-key`, `--rate`, `--max-wait`), the client
 * made from them (src/client: the one implementation; these commands only print), a status
 * line on a terminal while 429s are waited out or pages read, and how a failure is told (a
 * query's error with its caret, as `l9kit filter` prints it). Exit codes as `filter`'s: 0
 * something found, 1 nothing, 2 an error.
 */
import { ClientError, LookupClient, type RawResponse } from '../../../client/index.js'
import { printable } from '../../../validate/printable.js'
import { parse } from '../../args.js'
import { UsageError, type Io } from '../../command.js'
import { EXIT } from '../../command.js'
import { optionLines } from '../../help.js'

/** The options of every client command (parseArgs form). */
export const CLIENT_OPTIONS = {
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  rate: { type: 'string' },
  'max-wait': { type: 'string' },
} as const

/** Where a server is looked for without --base-url or L9KIT_BASE_URL: `l9kit serve`'s default address. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080'
/** Longest total wait on 429s for one request, by default (seconds). */
const DEFAULT_MAX_WAIT_S = 300

/** The help lines of CLIENT_OPTIONS, in a help text's option column (`column`). */
export const clientHelp = (column: number): string =>
  optionLines(
    [
      ['--base-url URL', `the server (default: $L9KIT_BASE_URL, else ${DEFAULT_BASE_URL}, where 'l9kit serve' listens)`],
      ['--api-key KEY', 'sent as the api-key header (default: $L9KIT_API_KEY; without one, the anonymous plan)'],
      ['--rate N|auto', 'requests per second at most (default 1, the public API’s limit); auto: no spacing, only the waits 429s ask for'],
      ['--max-wait SECONDS', `longest total wait on 429s (x-limited-for) for one request before giving up (default ${DEFAULT_MAX_WAIT_S})`],
    ],
    column,
  )

/** The exit status lines every client command's help ends with. */
export const EXIT_HELP = 'Exit status: 0 something found, 1 nothing found, 2 a usage error, a refusal or an unreachable server.'

/**
 * One line on standard error that says what is happening (pages read, a 429 being waited
 * out), redrawn in place; only on a terminal and without --quiet. Cleared before other output.
 */
export class StatusLine {
  private shown = false
  private readonly enabled: boolean
  constructor(private readonly io: Io) {
    this.enabled = io.stderrIsTTY && io.quiet !== true
  }
  show(text: string): void {
    if (!this.enabled) return
    this.io.stderr.write(`\r\x1b[K${printable(text)}`)
    this.shown = true
  }
  clear(): void {
    if (!this.shown) return
    this.io.stderr.write('\r\x1b[K')
    this.shown = false
  }
}

/**
 * parse() (args.ts) for the commands that take a QUERY: a query starting with `-` (`-country:DE`)
 * reads as an option, so an unknown option that looks like a query term gets a hint on how to
 * pass it.
 */
export function parseWithQuery<O extends Parameters<typeof parse>[2]>(command: string, argv: string[], options: O): ReturnType<typeof parse<O>> {
  try {
    return parse(command, argv, options)
  } catch (error) {
    const term = argv.find((a) => /^-[^-]/.test(a) && /[:"( ]/.test(a))
    if (!(error instanceof UsageError) || term === undefined || !/Unknown option/.test(error.message)) throw error
    throw new UsageError(`${command}: '${printable(term)}' reads as an option: a QUERY that starts with '-' goes after '--' (l9kit ${command} [options] -- '${printable(term)}')`)
  }
}

interface ClientValues {
  'base-url'?: string
  'api-key'?: string
  rate?: string
  'max-wait'?: string
}

/** The client the options describe; 429s are waited out (up to --max-wait), each wait shown on the status line. */
export function clientOf(command: string, values: ClientValues, io: Io, status: StatusLine): LookupClient {
  const baseUrl = values['base-url'] ?? (io.env.L9KIT_BASE_URL || DEFAULT_BASE_URL)
  if (!/^https?:\/\/[^/\s]/.test(baseUrl)) throw new UsageError(`${command}: the base URL must start with http:// or https:// (got '${printable(baseUrl)}')`)
  const rateText = values.rate ?? '1'
  const rate = rateText === 'auto' ? 'auto' : Number(rateText)
  if (rate !== 'auto' && !(Number.isFinite(rate) && rate > 0)) throw new UsageError(`${command}: --rate must be a number of requests per second above 0, or auto (got '${printable(rateText)}')`)
  const waitText = values['max-wait'] ?? String(DEFAULT_MAX_WAIT_S)
  const maxWait = Number(waitText)
  if (!/^\d+(\.\d+)?$/.test(waitText) || !Number.isFinite(maxWait)) throw new UsageError(`${command}: --max-wait must be a number of seconds (got '${printable(waitText)}')`)
  const apiKey = values['api-key'] ?? (io.env.L9KIT_API_KEY || undefined)
  return new LookupClient({
    baseUrl,
    ...(apiKey === undefined ? {} : { apiKey }),
    rate,
    maxWaitMs: maxWait * 1000,
    maxRetries: 1000,
    timeoutMs: 60_000,
    ...(io.stopSignal === undefined ? {} : { signal: io.stopSignal }),
    onWait: (ms, source) => status.show(`rate-limited by the server: waiting ${(ms / 1000).toFixed(1)} s${source === 'backoff' ? ' (no x-limited-for: backing off)' : ''}…`),
  })
}

/** The server's own words in an error answer: its JSON description (or the body when it is a JSON string). */
export function serverSays(response: RawResponse): string {
  try {
    const body = JSON.parse(response.body) as unknown
    if (typeof body === 'string') return body
    if (typeof body === 'object' && body !== null) {
      const { title, description } = body as { title?: unknown; description?: unknown }
      if (typeof description === 'string' && description !== '') return description
      if (typeof title === 'string') return title
    }
  } catch {
    // not JSON: the status says it
  }
  return ''
}

/** Whether a failure means the server has no such route (LeakIX's API for our extensions). */
export const noRoute = (error: unknown): boolean => error instanceof ClientError && error.kind === 'http' && [404, 405, 501].includes(error.status ?? 0)

/**
 * Tells a failure on standard error and gives the exit status (2). A query the server refused
 * (400 `bad query at position N …`) is shown as `l9kit filter` shows its own: the message and
 * a caret under the term. Anything not a ClientError is not ours to explain: thrown on.
 */
export async function failed(command: string, io: Io, error: unknown, query?: { text: string; scope: 'service' | 'leak' }): Promise<number> {
  if (!(error instanceof ClientError)) throw error
  const response = error.details.response
  const says = response === undefined ? '' : serverSays(response)
  if (error.kind === 'http' && response !== undefined) {
    if (query !== undefined && response.status === 400 && says.startsWith('bad query at position ')) {
      io.stderr.write(`l9kit ${command}: ${printable(says)}\n${await caretFor(says, query)}\n`)
      return EXIT.usage
    }
    const reason = `${response.status}${response.statusText === '' ? '' : ` ${response.statusText}`}`
    io.stderr.write(`l9kit ${command}: the server answered ${printable(reason)}${says === '' || says === response.statusText ? '' : `: ${printable(says)}`}\n`)
    return EXIT.usage
  }
  if (error.kind === 'aborted') {
    io.stderr.write(`l9kit ${command}: interrupted\n`)
    return EXIT.usage
  }
  io.stderr.write(`l9kit ${command}: ${printable(error.message)}\n`)
  return EXIT.usage
}

/**
 * The caret line under a query's offending term: the engine's own QueryError when it refuses
 * the query too (the same text `filter` prints), else one made from the position the server
 * named. The engine is loaded only here, on this error's path.
 */
async function caretFor(says: string, query: { text: string; scope: 'service' | 'leak' }): Promise<string> {
  const { parseQuery, QueryError } = await import('../../../query/index.js')
  try {
    parseQuery(query.text, { scope: query.scope })
  } catch (error) {
    if (error instanceof QueryError && error.message === says) return error.caret(query.text)
  }
  const m = /^bad query at position (\d+)(?: \(`((?:[^`]|`(?!\)))*)`\))?/.exec(says)!
  const offset = Math.min(Number(m[1]) - 1, query.text.length)
  return new QueryError('syntax', '', { offset, length: m[2]?.length ?? 1 }, query.text).caret(query.text)
}
