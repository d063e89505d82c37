/** `l9kit conform`: judge a lookup API server against the specification, check by check. */
import { writeFile } from 'node:fs/promises'
import type { Rate } from '../../client/index.js'
import {
  CHECKS,
  checksByFamily,
  replay,
  ReplayError,
  resultText,
  runSuite,
  SuiteError,
  type SuiteOptions,
  type SuiteReport,
  summaryText,
  toHar,
  toJsonReport,
  toJUnit,
} from '../../conformance/index.js'
import { VERSION } from '../version.js'
import { parse, positiveInt } from '../args.js'
import { type Command, EXIT, type Io, UsageError } from '../command.js'
import { writableFile } from '../files.js'

const HELP = `Usage: l9kit conform --base-url URL [options]

Judges a lookup API server against the specification: each check prints PASS, FAIL (with the
smallest failing example, shrunk by fast-check, and the command that replays it) or SKIP (nothing
to judge), then 'N passed, M failed'. Requests are paced at 1 per second by default and 429s are
waited out as x-limited-for says, so a real service is never hammered.

Options:
  --base-url URL           the server, http:// or https:// (required)
  --api-key KEY            sent as the api-key header (default: env L9KIT_API_KEY; none: anonymous)
  --pro-key KEY            a pro plan key, for the hook checks (default: env L9KIT_PRO_KEY)
  --admin-token TOKEN      the server's admin token: the hook checks ingest events through
                           POST /admin/events (default: env L9KIT_ADMIN_TOKEN)
  --allow-writes           let the run write to the server (the hook checks: resources, hooks and
                           16 test events with reserved names, tagged l9kit-conform:RUN, removed
                           afterwards where the server offers a way); without it nothing is
                           written and the hook checks are skipped
  --domain NAME            a domain the server holds events for; discovery starts there (repeatable)
  --ip ADDR                an IP address the server holds events for (repeatable)
  --checks ID,...          run only these checks
  --exclude-checks ID,...  leave these checks out (e.g. unknown-resource-404 to accept 404s)
  --stateless              the server keeps no state (a mock serving the OpenAPI examples, such
                           as Prism): ask only about the given names, skip the checks that
                           need state (keys, the rate limit, hooks, unknown names; see
                           --list-checks)
  --seed N                 seed of every generator (default: random, printed; replays a failure)
  --max-examples N         generated examples per check (default 10)
  --rate R                 requests per second: 1/s (default), 0.5/s, 5/s ...; or auto (no pacing,
                           only the waits 429 answers ask for)
  --report junit:FILE      write a JUnit XML report (repeatable, also with json:FILE)
  --report json:FILE       write the JSON report (schema/conform-report.schema.json)
  --report har:FILE        write every request and answer of the run (HAR 1.2; keys, tokens, hook
                           secrets and signatures redacted), for --replay
  --max-response-time MS   fail response-time when an answer takes longer (default: not judged)
  --replay FILE            send again the requests check --check made in a recorded run (a
                           HAR file of --report har:), to --base-url (default: the recorded
                           server), with this run's keys; prints each answer beside the recorded one
  --check ID               the check whose requests --replay sends
  --hook-receiver          listen on 127.0.0.1 for hook deliveries and run the hook checks
                           (needs --pro-key, --admin-token and --allow-writes)
  --hook-wait MS           how long the hook checks wait for deliveries (default 20000)
  --timeout MS             per request, milliseconds (default 15000)
  --list-checks            print every check (id, description, specification section) by family and exit
  -h, --help               show this help

Without --domain or --ip, checks about the content of answers are skipped: the suite cannot
guess which names a server holds. Rate-limit checks send one short burst (at most 10
requests) without a key to observe a 429. On a server that is not the reference service, hooks
there that watch everything (192.0.2.0/24, .test) still receive the run's events: see
docs/conformance.md before using --allow-writes on someone else's server.

Report files are checked before the run: one that cannot be written stops it at once.

Exit codes: 0 no check failed, 1 a check failed or the run could not remove what it wrote,
2 the suite could not run (bad options, server unreachable, report not writable).`

const OPTIONS = {
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  'pro-key': { type: 'string' },
  'admin-token': { type: 'string' },
  'allow-writes': { type: 'boolean' },
  domain: { type: 'string', multiple: true },
  ip: { type: 'string', multiple: true },
  checks: { type: 'string' },
  'exclude-checks': { type: 'string' },
  stateless: { type: 'boolean' },
  seed: { type: 'string' },
  'max-examples': { type: 'string' },
  rate: { type: 'string' },
  report: { type: 'string', multiple: true },
  'hook-receiver': { type: 'boolean' },
  'hook-wait': { type: 'string' },
  timeout: { type: 'string' },
  'list-checks': { type: 'boolean' },
  'max-response-time': { type: 'string' },
  replay: { type: 'string' },
  check: { type: 'string' },
} as const

interface ReportTarget {
  kind: 'junit' | 'json' | 'har'
  file: string
}

export const conform: Command = {
  name: 'conform',
  summary: 'Check a lookup API server against the specification',
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parse('conform', argv, OPTIONS)
    if (values['list-checks']) {
      for (const { family, checks } of checksByFamily(CHECKS)) {
        io.stdout.write(`${family.title} (${family.id}):\n`)
        for (const c of checks) {
          io.stdout.write(`  ${c.id}\n      ${c.description}\n      specification: ${c.spec}\n`)
          if (c.needsState) io.stdout.write(`      needs state (skipped with --stateless): ${c.needsState}\n`)
          if (writes(c)) io.stdout.write('      writes (runs only with --allow-writes)\n')
        }
      }
      return EXIT.ok
    }
    if (positionals.length > 0) throw new UsageError(`conform: unexpected argument '${positionals[0]}' (see 'l9kit conform --help')`)
    if (values.replay !== undefined || values.check !== undefined) return replayRun(values, io)
    const options = suiteOptions(values, io)
    const reports = (values.report ?? []).map(reportTarget)
    // A report that cannot be written fails now, not after a run of a minute.
    for (const target of reports) await writableFile(target.file)

    // --quiet: only the checks that failed, and the closing line.
    if (!io.quiet) io.stdout.write(
      `l9kit conform ${options.baseUrl} (${options.stateless ? 'stateless, ' : ''}seed ${options.seed}, rate ${options.rate === 'auto' ? 'auto' : `${options.rate}/s`}, ${options.maxExamples ?? 10} examples per check)\n`,
    )
    const writeChecks = CHECKS.filter((c) => writes(c) && selected(c.id, options)).map((c) => c.id)
    if (writeChecks.length > 0 && !options.stateless && !(options.allowWrites && options.adminToken !== undefined)) {
      io.stdout.write(`writes off (they need --allow-writes and --admin-token): skipping ${writeChecks.join(', ')}\n`)
    }
    let report: SuiteReport
    try {
      report = await runSuite(options, {
        onDiscovered: ({ domains, ips }) => (io.quiet ? undefined : io.stdout.write(`known: ${list(domains, 'domain')}; ${list(ips, 'IP address', 'IP addresses')}\n`)),
        onResult: (r) => (io.quiet && (r.status === 'passed' || r.status === 'skipped') ? undefined : io.stdout.write(`${resultText(r)}\n`)),
      })
    } catch (error) {
      if (error instanceof SuiteError && error.kind === 'usage') throw new UsageError(`conform: ${error.message}`)
      if (error instanceof SuiteError) {
        io.stderr.write(`l9kit conform: ${error.message}\n`)
        return EXIT.usage
      }
      throw error
    }
    for (const note of report.notes) io.stdout.write(`note: ${note}\n`)
    io.stdout.write(`${summaryText(report)}\n`)
    for (const target of reports) {
      const text =
        target.kind === 'junit'
          ? toJUnit(report)
          : target.kind === 'har'
            ? `${JSON.stringify(toHar(report.recording?.exchanges ?? [], report.recording?.secrets ?? [], { version: VERSION, baseUrl: report.baseUrl, seed: report.seed }), null, 1)}\n`
            : `${JSON.stringify(toJsonReport(report), null, 2)}\n`
      try {
        await writeFile(target.file, text)
      } catch (error) {
        io.stderr.write(`l9kit conform: cannot write ${target.file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`)
        return EXIT.usage
      }
    }
    // What the run wrote and could not remove fails it, whatever its checks said.
    const left = report.leftBehind?.length ?? 0
    if (left > 0) io.stderr.write(`l9kit conform: the run could not remove what it wrote (${left} clean-up${left === 1 ? '' : 's'} failed; see the notes above)\n`)
    const { failed, errors } = report.summary
    return failed + errors > 0 || left > 0 ? EXIT.failed : EXIT.ok
  },
}

type Values = ReturnType<typeof parse<typeof OPTIONS>>['values']

function suiteOptions(values: Values, io: Io): SuiteOptions & { seed: number } {
  const baseUrl = values['base-url']
  if (baseUrl === undefined) throw new UsageError("conform: --base-url is required (see 'l9kit conform --help')")
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    throw new UsageError(`conform: --base-url must be an http:// or https:// URL (got '${baseUrl}')`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`conform: --base-url must be an http:// or https:// URL (got '${baseUrl}')`)
  const apiKey = values['api-key'] ?? nonEmpty(io.env.L9KIT_API_KEY)
  const proKey = values['pro-key'] ?? nonEmpty(io.env.L9KIT_PRO_KEY)
  const adminToken = values['admin-token'] ?? nonEmpty(io.env.L9KIT_ADMIN_TOKEN)
  if (values['hook-receiver'] && proKey === undefined) throw new UsageError('conform: --hook-receiver needs --pro-key (hooks are a pro plan feature)')
  if (values['hook-receiver'] && values.stateless) throw new UsageError('conform: --hook-receiver and --stateless exclude each other (the hook checks need a server that stores hooks)')
  if (values['hook-receiver'] && adminToken === undefined) throw new UsageError('conform: --hook-receiver needs --admin-token (the hook checks ingest their events through POST /admin/events)')
  if (values['allow-writes'] && values.stateless) throw new UsageError('conform: --allow-writes and --stateless exclude each other (a stateless server keeps nothing written to it)')
  const options: SuiteOptions & { seed: number } = {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    seed: seedOf(values.seed),
    rate: rateOf(values.rate),
    domains: values.domain ?? [],
    ips: values.ip ?? [],
    hookReceiver: values['hook-receiver'] ?? false,
    allowWrites: values['allow-writes'] ?? false,
    timeoutMs: positiveInt('conform', 'timeout', values.timeout, 15_000),
  }
  if ((values.report ?? []).some((r) => r.startsWith('har:'))) options.record = true
  if (values['max-response-time'] !== undefined) options.maxResponseTimeMs = positiveInt('conform', 'max-response-time', values['max-response-time'], 0)
  if (values['hook-wait'] !== undefined) options.hookWaitMs = positiveInt('conform', 'hook-wait', values['hook-wait'], 20_000)
  if (values['max-examples'] !== undefined) options.maxExamples = positiveInt('conform', 'max-examples', values['max-examples'], 10)
  if (apiKey !== undefined) options.apiKey = apiKey
  if (proKey !== undefined) options.proKey = proKey
  if (adminToken !== undefined) options.adminToken = adminToken
  if (values.checks !== undefined) options.checks = ids(values.checks)
  if (values.stateless) options.stateless = true
  if (values['exclude-checks'] !== undefined) options.excludeChecks = ids(values['exclude-checks'])
  if (io.stopSignal) options.signal = io.stopSignal
  return options
}

/** Whether `--checks`/`--exclude-checks` keep check `id`. */
const selected = (id: string, options: SuiteOptions) =>
  (options.checks === undefined || options.checks.length === 0 || options.checks.includes(id)) && !(options.excludeChecks ?? []).includes(id)

const nonEmpty = (value: string | undefined) => (value === undefined || value === '' ? undefined : value)
const ids = (text: string) => text.split(',').map((s) => s.trim()).filter((s) => s !== '')
const list = (items: string[], one: string, many = `${one}s`) => (items.length === 0 ? `no ${many}` : `${items.length} ${items.length === 1 ? one : many} (${items.join(', ')})`)

function seedOf(text: string | undefined): number {
  if (text === undefined) return Math.floor(Math.random() * 2 ** 31)
  const n = Number(text)
  if (!/^-?\d+$/.test(text) || n < -(2 ** 31) || n >= 2 ** 31) throw new UsageError(`conform: --seed must be an integer from -2147483648 to 2147483647 (got '${text}')`)
  return n
}

function rateOf(text: string | undefined): Rate {
  if (text === undefined) return 1
  if (text === 'auto') return 'auto'
  const m = /^(\d+(?:\.\d+)?)(?:\/s)?$/.exec(text)
  const n = m ? Number(m[1]) : NaN
  if (!(n > 0)) throw new UsageError(`conform: --rate must be requests per second such as 1/s or 0.5/s, or auto (got '${text}')`)
  return n
}

function reportTarget(text: string): ReportTarget {
  const m = /^(junit|json|har):(.+)$/.exec(text)
  if (!m) throw new UsageError(`conform: --report must be junit:FILE, json:FILE or har:FILE (got '${text}')`)
  return { kind: m[1] as ReportTarget['kind'], file: m[2]! }
}

/** Whether a check writes to the server (it needs --allow-writes). */
const writes = (c: (typeof CHECKS)[number]) => c.writes === true || c.id.startsWith('hook-') || c.id === 'search-complete'

/** `--replay FILE --check ID`: the check's recorded requests, sent again; exit 0 once sent, 2 when they cannot be. */
async function replayRun(values: Values, io: Io): Promise<number> {
  const file = values.replay
  const check = values.check
  if (file === undefined || check === undefined) throw new UsageError('conform: --replay FILE and --check ID go together')
  const base = values['base-url']
  if (base !== undefined && !/^https?:\/\//.test(base)) throw new UsageError(`conform: --base-url must be an http:// or https:// URL (got '${base}')`)
  try {
    const report = await replay(
      {
        file,
        check,
        ...(base === undefined ? {} : { baseUrl: base }),
        ...defined({ apiKey: values['api-key'] ?? nonEmpty(io.env.L9KIT_API_KEY), proKey: values['pro-key'] ?? nonEmpty(io.env.L9KIT_PRO_KEY), adminToken: values['admin-token'] ?? nonEmpty(io.env.L9KIT_ADMIN_TOKEN) }),
        rate: rateOf(values.rate),
        timeoutMs: positiveInt('conform', 'timeout', values.timeout, 15_000),
        ...(io.stopSignal ? { signal: io.stopSignal } : {}),
      },
      (e) => {
        const now = 'status' in e.now ? String(e.now.status) : `no answer (${e.now.error})`
        io.stdout.write(`${e.same ? 'same' : 'DIFF'}  ${e.method} ${e.path} (${e.identity}): recorded ${e.recorded.status}, now ${now}${e.same || !('status' in e.now) || e.now.status !== e.recorded.status ? '' : ' (another body)'}\n`)
      },
    )
    const differ = report.exchanges.filter((e) => !e.same).length
    io.stdout.write(`replayed ${report.exchanges.length} requests of ${check} to ${report.baseUrl}: ${report.exchanges.length - differ} answered as recorded, ${differ} differently\n`)
    return EXIT.ok
  } catch (error) {
    if (error instanceof ReplayError) {
      io.stderr.write(`l9kit conform: ${error.message}\n`)
      return EXIT.usage
    }
    throw error
  }
}

const defined = <T extends Record<string, string | undefined>>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: string }
