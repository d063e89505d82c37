/**
 * Runs the selected checks one after another against one server and collects their results.
 * Requests are paced (1 per second unless told otherwise) and shared between checks.
 */
import { ClientError } from '../client/index.js'
import type { Check, CheckResult, Verdict } from './check.js'
import { CHECKS } from './checks/index.js'
import { describeRequest, describeResponse } from './checks/lib.js'
import { SuiteContext, type SuiteOptions } from './context.js'
import { discover } from './discover.js'
import type { Exchange } from './record.js'

export interface SuiteReport {
  baseUrl: string
  seed: number
  maxExamples: number
  rate: string
  /** Canonical UTC time the run started. */
  startedAt: string
  durationMs: number
  requests: number
  results: CheckResult[]
  summary: { passed: number; failed: number; skipped: number; errors: number }
  /** What the run wrote to the server and what it left there (empty when it wrote nothing). */
  notes: string[]
  /** Every exchange, when recorded (`record`: the HAR cassette), and the values to redact. */
  recording?: { exchanges: Exchange[]; secrets: Set<string> }
  /** What it wrote and could not remove (also in `notes`): a run that leaves anything behind has failed. */
  leftBehind?: string[]
}

/** The suite could not run at all: bad options (`usage`) or no server answering (`unreachable`). */
export class SuiteError extends Error {
  override name = 'SuiteError'
  constructor(
    readonly kind: 'usage' | 'unreachable',
    message: string,
  ) {
    super(message)
  }
}

/** The checks `--checks` and `--exclude-checks` select, in run order; unknown ids are a usage error. */
export function selectChecks(include?: string[], exclude?: string[]): Check[] {
  const ids = new Set(CHECKS.map((c) => c.id))
  for (const id of [...(include ?? []), ...(exclude ?? [])]) {
    if (!ids.has(id)) throw new SuiteError('usage', `unknown check '${id}' (checks: ${[...ids].join(', ')})`)
  }
  return CHECKS.filter((c) => (include === undefined || include.length === 0 || include.includes(c.id)) && !(exclude ?? []).includes(c.id))
}

export interface RunHooks {
  /** Called once discovery is done, with what it found. */
  onDiscovered?(known: { domains: string[]; ips: string[] }): void
  /** Called as each check finishes. */
  onResult?(result: CheckResult): void
}

/** Runs the suite; throws SuiteError when it cannot run, otherwise every outcome is in the report. */
export async function runSuite(options: SuiteOptions, hooks: RunHooks = {}): Promise<SuiteReport> {
  const checks = selectChecks(options.checks, options.excludeChecks)
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31)
  const ctx = new SuiteContext({ ...options, seed })
  const startedAt = new Date().toISOString()
  const started = performance.now()
  try {
    await discover(ctx)
  } catch (error) {
    if (error instanceof ClientError) throw new SuiteError('unreachable', `cannot use ${options.baseUrl}: ${error.message}`)
    throw error
  }
  hooks.onDiscovered?.({ domains: [...ctx.known.domains], ips: [...ctx.known.ips] })
  const results: CheckResult[] = []
  for (const check of checks) {
    ctx.currentCheck = check.id
    const result = options.stateless && check.needsState ? statelessSkip(ctx, check) : await runCheck(ctx, check)
    results.push(result)
    hooks.onResult?.(result)
  }
  const count = (status: CheckResult['status']) => results.filter((r) => r.status === status).length
  await ctx.recorder?.settled()
  return {
    baseUrl: options.baseUrl,
    seed,
    maxExamples: ctx.maxExamples,
    rate: options.rate === 'auto' ? 'auto' : `${options.rate ?? 1}/s`,
    startedAt,
    durationMs: Math.round(performance.now() - started),
    requests: ctx.requestCount,
    results,
    summary: { passed: count('passed'), failed: count('failed'), skipped: count('skipped'), errors: count('error') },
    notes: [...ctx.notes],
    ...(ctx.recorder ? { recording: { exchanges: ctx.recorder.exchanges, secrets: new Set([...ctx.recorder.secrets, ctx.wrongKey]) } } : {}),
    leftBehind: [...ctx.leftBehind],
  }
}

/** `l9kit conform` with what changes the questions asked (base URL, names, examples, seed), for one check. */
function replayCommand(options: SuiteOptions, check: Check, seed: number): string {
  const id = check.id
  const parts = ['l9kit conform', `--base-url ${options.baseUrl}`]
  for (const d of options.domains ?? []) parts.push(`--domain ${d}`)
  for (const ip of options.ips ?? []) parts.push(`--ip ${ip}`)
  if (options.maxExamples !== undefined) parts.push(`--max-examples ${options.maxExamples}`)
  if (options.stateless) parts.push('--stateless')
  // The hook checks need the receiver again (their key and token are left out like every key).
  if (options.hookReceiver && id.startsWith('hook-')) parts.push('--hook-receiver')
  if (options.allowWrites && (check.writes === true || id.startsWith('hook-') || id === 'search-complete')) parts.push('--allow-writes')
  if (options.maxResponseTimeMs !== undefined && id === 'response-time') parts.push(`--max-response-time ${options.maxResponseTimeMs}`)
  if (options.hookWaitMs !== undefined && id.startsWith('hook-')) parts.push(`--hook-wait ${options.hookWaitMs}`)
  parts.push(`--checks ${id}`, `--seed ${seed}`)
  return parts.join(' ')
}

/** A check that needs state, not run against a stateless server; the reason says why. */
function statelessSkip(ctx: SuiteContext, check: Check): CheckResult {
  const { id, description, spec } = check
  return { id, description, spec, status: 'skipped', message: `not for a stateless server (--stateless): ${check.needsState}`, seed: ctx.seed, requests: 0, durationMs: 0 }
}

async function runCheck(ctx: SuiteContext, check: Check): Promise<CheckResult> {
  const before = ctx.requestCount
  const started = performance.now()
  let verdict: Verdict | { status: 'error'; message: string }
  try {
    verdict = await check.run(ctx)
  } catch (error) {
    const message = error instanceof ClientError ? error.message : `the check could not run: ${(error as Error)?.message ?? String(error)}`
    verdict = { status: 'error', message }
  }
  const base = {
    id: check.id,
    description: check.description,
    spec: check.spec,
    seed: ctx.seed,
    requests: ctx.requestCount - before,
    durationMs: Math.round(performance.now() - started),
  }
  switch (verdict.status) {
    case 'passed':
      return { ...base, status: 'passed', ...(verdict.note === undefined ? {} : { message: verdict.note }) }
    case 'skipped':
      return { ...base, status: 'skipped', message: verdict.reason }
    case 'error':
      return { ...base, status: 'error', message: verdict.message, replay: replayCommand(ctx.options, check, ctx.seed) }
    case 'failed': {
      const { problem, input, path } = verdict
      const r = problem.response
      const example = {
        ...(input === undefined ? {} : { input }),
        ...(r ? { request: describeRequest(r, ctx.identityOf(r)), response: describeResponse(r) } : {}),
      }
      return { ...base, status: 'failed', message: problem.message, example, ...(path ? { path } : {}), replay: replayCommand(ctx.options, check, ctx.seed) }
    }
  }
}
