/**
 * The 429 answer. One probe, shared by three checks: a short burst without a key (at most
 * `burst` requests, stopping at the first 429), then one request after waiting exactly what
 * `x-limited-for` said. Every other 429 the suite met is judged too.
 */
import { limitedFor, parseDurationHeader, type RawResponse, sleep } from '../../client/index.js'
import { type Check, fail, pass, type Problem, skip } from '../check.js'
import type { SuiteContext } from '../context.js'
import { PREFLIGHT_IP } from '../discover.js'
import { hostPath, plural, problemAt } from './lib.js'

interface Probe {
  sent: number
  /** The first 429 of the burst. */
  limited?: RawResponse
  /** Milliseconds it asked to wait, when readable. */
  waitMs?: number
  /** The answer to the request sent after waiting. */
  after?: RawResponse
}

/** Longest advertised wait the probe sits through. */
const MAX_PROBE_WAIT_MS = 65_000

function probe(ctx: SuiteContext): Promise<Probe> {
  return ctx.memo('rate-limit-probe', async () => {
    const path = hostPath(PREFLIGHT_IP)
    const limit = ctx.options.burst ?? 10
    const result: Probe = { sent: 0 }
    let receivedAt = 0
    while (result.sent < limit && !result.limited) {
      const r = await ctx.raw(path, 'anonymous')
      receivedAt = performance.now()
      result.sent++
      if (r.status === 429) result.limited = r
    }
    if (!result.limited) return result
    result.waitMs = limitedFor(result.limited)
    if (result.waitMs === undefined || result.waitMs > MAX_PROBE_WAIT_MS) return result
    // Exactly the advertised wait, counted from the answer's arrival on a monotonic clock
    // (a timer alone may fire a fraction of a millisecond early, which is not the server's fault).
    const until = receivedAt + result.waitMs
    for (let left = result.waitMs; left > 0; left = until - performance.now()) await sleep(Math.ceil(left), ctx.options.signal)
    result.after = await ctx.raw(path, 'anonymous')
    return result
  })
}

/** Every 429 met: during the run (the client waited those out) and in the probe. */
async function all429s(ctx: SuiteContext): Promise<{ list: RawResponse[]; probe: Probe }> {
  const p = await probe(ctx)
  return { list: ctx.responses.filter((r) => r.status === 429), probe: p }
}

/** Why `--stateless` skips the three rate-limit checks. */
const COUNTS_REQUESTS = 'a 429 after a burst needs the server to count each caller’s requests'

const noLimit = (p: Probe) => skip(`no 429 within a burst of ${plural(p.sent, 'request')} without a key; the rate limit could not be observed`)

export const rateLimitHeader: Check = {
  id: 'rate-limit-header',
  description: 'Every 429 carries `x-limited-for` with a Go duration (`734ms`, `1.5s`, `1m2s`)',
  spec: 'Errors (429); Limits; The public API beyond the specification (x-limited-for is a Go duration)',
  needsState: COUNTS_REQUESTS,
  async run(ctx) {
    const { list, probe: p } = await all429s(ctx)
    if (list.length === 0) return noLimit(p)
    for (const r of list) {
      const header = r.headers['x-limited-for']
      let problem: Problem | undefined
      if (header === undefined) problem = problemAt(r, 'a 429 has no x-limited-for header')
      else {
        const parsed = parseDurationHeader(header)
        if (!parsed.ok) problem = problemAt(r, `x-limited-for ${JSON.stringify(header)}: ${parsed.reason}`)
        else if (parsed.nanoseconds < 0n) problem = problemAt(r, `x-limited-for ${JSON.stringify(header)} is negative`)
      }
      if (problem) return fail(problem)
    }
    return pass(plural(list.length, '429 answer'))
  },
}

export const rateLimitReason: Check = {
  id: 'rate-limit-reason',
  description: 'Every 429 has the reason phrase `Rate-limited`',
  spec: 'Errors (429: the reason phrase is Rate-limited)',
  needsState: COUNTS_REQUESTS,
  async run(ctx) {
    const { list, probe: p } = await all429s(ctx)
    if (list.length === 0) return noLimit(p)
    for (const r of list) {
      if (r.statusText !== 'Rate-limited') {
        return fail(problemAt(r, `the reason phrase is ${JSON.stringify(r.statusText)}, not "Rate-limited"${r.statusText === '' ? ' (HTTP/2 has no reason phrase)' : ''}`))
      }
    }
    return pass(plural(list.length, '429 answer'))
  },
}

export const rateLimitWait: Check = {
  id: 'rate-limit-wait',
  description: 'After waiting the `x-limited-for` duration of a 429, the next request is not rate-limited',
  spec: 'Errors (429: the client must wait for the duration in x-limited-for)',
  needsState: COUNTS_REQUESTS,
  async run(ctx) {
    const p = await probe(ctx)
    if (!p.limited) return noLimit(p)
    if (p.waitMs === undefined) return skip('the 429 had no usable x-limited-for (see rate-limit-header), so there is no wait to test')
    if (!p.after) return skip(`the 429 asked to wait ${p.waitMs} ms, longer than the suite waits (${MAX_PROBE_WAIT_MS} ms)`)
    if (p.after.status === 429) {
      return fail(
        problemAt(
          p.after,
          `after waiting ${p.waitMs} ms as x-limited-for ${JSON.stringify(p.limited.headers['x-limited-for'])} said, the next request was 429 again (x-limited-for ${JSON.stringify(p.after.headers['x-limited-for'] ?? '(none)')})`,
        ),
      )
    }
    return pass(`waited ${p.waitMs} ms, then ${p.after.status}`)
  },
}
