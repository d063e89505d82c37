/** `l9kit serve`: Run the reference lookup service. */
import { parse } from '../args.js'
import type { Command, Io } from '../command.js'
import { EXIT, UsageError } from '../command.js'
import { openInputs, problemLine } from '../inputs.js'
import {
  ConfigError,
  defaultConfig,
  DEMO_SECRETS,
  ingestStream,
  loadBundled,
  loadConfig,
  MemoryStore,
  type RunningService,
  type ServiceConfig,
  startService,
} from '../../service/index.js'

const HELP = `Usage: l9kit serve [--host HOST] [--port PORT] [--config FILE] [--load FILE...]

Runs the reference lookup service (GET /host/:ip, GET /domain/:domain,
GET /api/subdomains/:domain, and POST /admin/events to add events).
The first line written is 'listening on http://HOST:PORT'.

With no options it is the built-in default: the bundled corpus and demo events
are loaded and demo keys for each plan are printed (local testing only).

Options:
  --host HOST      address to listen on (default 127.0.0.1)
  --port PORT      port to listen on; 0 picks a free one (default 8080)
  --config FILE    JSON file with keys, plans, admin token (see docs/service.md);
                   without it the demo keys are used
  --load FILE...   JSON Lines or JSON files of events to load at start instead of the
                   bundled data ('-' reads standard input); may be repeated, and further
                   FILE arguments are loaded too
  -h, --help       this text

Stops cleanly on SIGINT or SIGTERM.
Exit codes: 0 stopped normally, 2 usage error (bad option, bad config, port in use).`

export const serve: Command = {
  name: 'serve',
  summary: 'Run the reference lookup service',
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parse('serve', argv, {
      host: { type: 'string' },
      port: { type: 'string' },
      config: { type: 'string' },
      load: { type: 'string', multiple: true },
    })
    const port = portOption(values.port)
    const host = values.host ?? '127.0.0.1'
    const config = values.config === undefined ? defaultConfig() : await readConfig(values.config)
    const files = [...(values.load ?? []), ...positionals]
    const inputs = files.length === 0 ? [] : await openInputs(files, io.stdin)

    const store = new MemoryStore()
    const loaded: string[] = []
    if (inputs.length === 0) {
      const report = await loadBundled(store)
      for (const p of report.problems) io.stderr.write(`l9kit serve: ${p}\n`)
      loaded.push(`loaded ${store.size} events (bundled corpus: ${report.files} files, and the demo events)`)
    } else {
      for (const input of inputs) {
        const report = await ingestStream(store, input.stream)
        for (const r of report.rejected) {
          for (const e of r.errors) io.stderr.write(`l9kit serve: ${problemLine(input.name, r.line, e.pointer, e.message)}\n`)
        }
        loaded.push(`${input.name}: ${report.accepted} new, ${report.duplicates} duplicates, ${report.rejected.length} rejected`)
      }
      loaded.push(`loaded ${store.size} events`)
    }

    let running: RunningService
    try {
      running = await startService({ store, config, host, port })
    } catch (error) {
      throw new UsageError(`serve: cannot listen on ${host}:${port}: ${listenProblem(error as NodeJS.ErrnoException)}`)
    }
    io.stdout.write(`listening on ${running.url}\n`)
    if (values.config === undefined) io.stdout.write(demoKeys(config))
    for (const line of loaded) io.stderr.write(`${line}\n`)

    await stopped(io)
    await running.close()
    io.stderr.write('stopped\n')
    return EXIT.ok
  },
}

function portOption(value: string | undefined): number {
  if (value === undefined) return 8080
  const n = Number(value)
  if (!/^\d+$/.test(value) || n > 65535) throw new UsageError(`serve: --port must be an integer 0–65535 (got '${value}')`)
  return n
}

async function readConfig(path: string): Promise<ServiceConfig> {
  try {
    return await loadConfig(path)
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(`serve: ${error.problems.join('\nl9kit serve: ')}`)
    throw error
  }
}

function listenProblem(error: NodeJS.ErrnoException): string {
  if (error.code === 'EADDRINUSE') return 'the address is already in use (try another --port, or --port 0)'
  if (error.code === 'EACCES') return 'permission denied (ports below 1024 need privileges)'
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') return 'no such local address'
  return error.message
}

function demoKeys(config: ServiceConfig): string {
  const plan = config.plans
  const cap = (n: number | null) => (n === null ? 'all' : String(n))
  return [
    'demo keys (built-in default, for local testing; use --config FILE for your own):',
    `  anonymous   no api-key header                      subdomains: ${cap(plan.anonymous.subdomains)}`,
    `  registered  api-key: ${DEMO_SECRETS.registered.padEnd(26)}subdomains: ${cap(plan.registered.subdomains)}`,
    `  pro         api-key: ${DEMO_SECRETS.pro.padEnd(26)}subdomains: ${cap(plan.pro.subdomains)}`,
    `  admin       authorization: Bearer ${DEMO_SECRETS.admin}  (POST /admin/events)`,
    '',
  ].join('\n')
}

/** Resolves on the program's stop signal, or on SIGINT/SIGTERM when run without one. */
function stopped(io: Io): Promise<void> {
  const signal = io.stopSignal
  if (signal) {
    if (signal.aborted) return Promise.resolve()
    return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))
  }
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve())
    process.once('SIGTERM', () => resolve())
  })
}
