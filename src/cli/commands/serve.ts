/** `l9kit serve`: Run the reference lookup service. */
import { parse, portOption, positiveInt } from '../args.js'
import type { Command } from '../command.js'
import { EXIT, UsageError } from '../command.js'
import { issueLine, openInputs } from '../inputs.js'
import { refuseDemoOffLoopback } from '../protected-demo.js'
import { readableFile } from '../files.js'
import { untilStopped } from '../stop.js'
import { openStore, storeUrl } from './serve-store.js'
import { isServeWorker, leaveGroup, reportListening, startWorkers } from './serve-workers.js'
import {
  ConfigError,
  defaultConfig,
  DEMO_SECRETS,
  ingestStream,
  loadBundled,
  loadConfig,
  type RunningService,
  type ServiceConfig,
  startService,
  startSharedPreparePool,
  lowerHelperThreads,
} from '../../service/index.js'

const HELP = `Usage: l9kit serve [--host HOST] [--port PORT] [--config FILE] [--allow-private-hooks] [--load FILE...] [--demo]

Runs the reference lookup service (GET /host/:ip, GET /domain/:domain,
GET /api/subdomains/:domain, and POST /admin/events to add events).
The first line written is 'listening on http://HOST:PORT'.

With no options it is the built-in default: the bundled corpus and demo events
are loaded and demo keys for each plan are printed (local testing only). With
--config the store holds your data only (--load), or none, unless --demo is given.

Options:
  --host HOST      address to listen on (default 127.0.0.1); without --config only a
                   loopback address is accepted: the demo keys are public
  --port PORT      port to listen on; 0 picks a free one (default 8080)
  --allow-private-hooks
                   let hooks reach loopback and private addresses (local use and
                   tests; see docs/hooks.md); the built-in default allows them
  --config FILE    JSON file with keys, plans, admin token (see docs/service.md);
                   without it the demo keys are used
  --load FILE...   JSON Lines or JSON files of events to load at start instead of the
                   bundled data ('-' reads standard input); may be repeated, and further
                   FILE arguments are loaded too
  --demo           load the bundled corpus and demo events (fake example.com findings)
                   too; done by default only without --config, --load and --store
  --store URL      where events and hooks live: 'memory' (the default: gone when the
                   process stops) or postgres://USER@HOST:PORT/DATABASE (kept; the schema
                   is migrated at start; default from L9KIT_DATABASE_URL). With a
                   PostgreSQL store the bundled data is not loaded
  --schema NAME    PostgreSQL schema for l9kit's tables (default public)
  --workers N      N processes serving one port (needs a PostgreSQL store; default 1)
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
      'allow-private-hooks': { type: 'boolean' },
      load: { type: 'string', multiple: true },
      store: { type: 'string' },
      schema: { type: 'string' },
      workers: { type: 'string' },
      demo: { type: 'boolean' },
    })
    const port = portOption('serve', values.port, 8080)
    const host = values.host ?? '127.0.0.1'
    if (values.config === undefined) refuseDemoOffLoopback(host)
    const config = values.config === undefined ? defaultConfig() : await readConfig(values.config)
    for (const warning of config.warnings ?? []) io.stderr.write(`l9kit serve: warning: ${warning}\n`)
    if (values['allow-private-hooks']) config.allowPrivateHooks = true
    const files = [...(values.load ?? []), ...positionals]
    const url = storeUrl(values.store, io.env)
    const workers = positiveInt('serve', 'workers', values.workers, 1)
    if (workers > 1 && url === undefined) {
      throw new UsageError('serve: --workers needs a PostgreSQL store (--store postgres://… or L9KIT_DATABASE_URL): processes share data only through it')
    }
    // A worker of --workers only serves: the primary loaded the files.
    const worker = isServeWorker()
    const inputs = files.length === 0 || worker ? [] : await openInputs(files, io.stdin)

    const opened = await openStore(url, values.schema, config.hookDelivery.queueLimit)
    const store = opened.store
    const loaded: string[] = []
    // The bundled demo data (fake example.com findings) only where it cannot be mistaken for a
    // user's own: the built-in default (no --config, no --load, a memory store), or --demo.
    const demo = values.demo === true || (values.config === undefined && inputs.length === 0 && !opened.persistent)
    if (worker) {
      // nothing to load
    } else if (inputs.length === 0 && !demo) {
      loaded.push(opened.persistent ? `store ${opened.shown}: ${store.size} events` : 'loaded 0 events (an empty store: --load FILE for your events, --demo for the demo data)')
    } else {
      if (demo) {
        const report = await loadBundled(store)
        for (const p of report.problems) io.stderr.write(`l9kit serve: ${p}\n`)
        loaded.push(`bundled corpus (${report.files} files) and the demo events: ${store.size} events`)
      }
      for (const input of inputs) {
        // Before the service listens no lookup waits on this process: threads, the faster kind (not ingest_workers).
        const report = await ingestStream(store, input.stream, { workerPriority: config.ingestWorkerPriority, workerKind: 'thread' })
        for (const r of report.rejected) {
          for (const e of r.errors) io.stderr.write(`l9kit serve: ${issueLine(input.name, r.line, e)}\n`)
        }
        loaded.push(`${input.name}: ${report.accepted} new, ${report.duplicates} duplicates, ${report.rejected.length} rejected`)
      }
      loaded.push(`loaded ${store.size} events`)
    }

    if (workers > 1 && !worker) {
      await opened.close()
      let group
      try {
        group = await startWorkers(workers, io)
      } catch (error) {
        throw new UsageError(`serve: ${(error as Error).message}`)
      }
      io.stdout.write(`listening on ${group.url} (${workers} workers)\n`)
      if (values.config === undefined && !io.quiet) io.stdout.write(demoKeys(config))
      if (!io.quiet) for (const line of loaded) io.stderr.write(`${line}\n`)
      await untilStopped(io)
      await group.stop()
      io.stderr.write('stopped\n')
      return EXIT.ok
    }

    if (config.adminToken !== null) {
      // Worker processes for large ingests over HTTP start before the service listens: starting
      // one forks this process, a stall that grows with what it holds (prepare-pool.ts).
      if (config.ingestWorkers === 'process') startSharedPreparePool(config.ingestWorkerPriority, 'process')
      // And this process's helper threads give way to lookups during ingests (helper-threads.ts),
      // when the process is this command's alone: the change lasts for the whole process.
      if (io.ownsProcess) lowerHelperThreads(config.helperThreadPriority)
    }
    let running: RunningService
    try {
      running = await startService({ store, config, host, port, hooks: opened.hooks })
    } catch (error) {
      await opened.close()
      throw new UsageError(`serve: cannot listen on ${host}:${port}: ${listenProblem(error as NodeJS.ErrnoException)}`)
    }
    if (worker) {
      reportListening(running.url)
      await untilStopped(io)
      await running.close()
      await opened.close()
      leaveGroup()
      return EXIT.ok
    }
    io.stdout.write(`listening on ${running.url}\n`)
    if (values.config === undefined && !io.quiet) io.stdout.write(demoKeys(config))
    if (!io.quiet) for (const line of loaded) io.stderr.write(`${line}\n`)

    await untilStopped(io)
    const { pendingDeliveries } = await running.close()
    await opened.close()
    if (pendingDeliveries > 0 && opened.persistent) {
      io.stderr.write(`${pendingDeliveries} hook deliveries still pending (kept in the database: sent after the next start)\n`)
    } else if (pendingDeliveries > 0) {
      io.stderr.write(`${pendingDeliveries} hook deliveries still pending (lost: the memory store does not keep them)\n`)
    }
    io.stderr.write('stopped\n')
    return EXIT.ok
  },
}

async function readConfig(path: string): Promise<ServiceConfig> {
  await readableFile(path) // a missing file or a directory is worded as for every other file option
  try {
    return await loadConfig(path)
  } catch (error) {
    // One line per problem (program.ts prints a usage error line by line, each made terminal-safe).
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
  const cap = (n: number | null) => `subdomains: ${n === null ? 'all' : String(n)}`
  const rows: [string, string, string][] = [
    ['anonymous', 'no api-key header', cap(plan.anonymous.subdomains)],
    ['registered', `api-key: ${DEMO_SECRETS.registered}`, cap(plan.registered.subdomains)],
    ['pro', `api-key: ${DEMO_SECRETS.pro}`, cap(plan.pro.subdomains)],
    ['admin', `authorization: Bearer ${DEMO_SECRETS.admin}`, 'POST /admin/events'],
  ]
  const width = (i: number) => Math.max(...rows.map((row) => row[i]!.length))
  return [
    'demo keys (built-in default, for local testing; use --config FILE for your own):',
    ...rows.map(([name, header, note]) => `  ${name.padEnd(width(0))}  ${header.padEnd(width(1))}  ${note}`),
    '',
  ].join('\n')
}
