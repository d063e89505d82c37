/**
 * Standard Webhooks signatures: every delivery carries `webhook-id`, `webhook-timestamp` (Unix
 * seconds, near the receiver's clock) and `webhook-signature` (`v1,` + base64), and the
 * signature verifies under the hook's secret. Verification uses src/webhooks/signature.ts, the
 * same code `l9kit hooks listen` uses; the timestamp's freshness is the headers check's part.
 */
import { DEFAULT_TOLERANCE_S, verify } from '../../webhooks/signature.js'
import { type Check, fail, pass, skip } from '../check.js'
import type { Arrival } from './hook-receiver.js'
import { HOOKS_NEED_STATE, hookScenario } from './hook-scenario.js'
import { exampleInput, hookText } from './hook-text.js'
import { plural } from './lib.js'

const SIGNATURE = /^v1,[A-Za-z0-9+/]+={0,2}$/

/** What is wrong with a delivery's signature headers, if anything. */
function headerProblem(a: Arrival): string | undefined {
  const h = a.headers
  for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const) {
    if (h[name] === undefined || h[name]!.trim() === '') return `has no ${name} header`
  }
  if (!/^[0-9]{1,12}$/.test(h['webhook-timestamp']!)) return `has webhook-timestamp ${JSON.stringify(h['webhook-timestamp'])}, not Unix seconds`
  const skew = Math.round(a.arrivedS - Number(h['webhook-timestamp']))
  if (Math.abs(skew) > DEFAULT_TOLERANCE_S) return `has a webhook-timestamp ${skew} s from the receiver's clock (more than ${DEFAULT_TOLERANCE_S} s)`
  if (!h['webhook-signature']!.split(' ').some((part) => SIGNATURE.test(part))) return `has webhook-signature ${JSON.stringify(h['webhook-signature']!.slice(0, 60))}, with no v1,<base64> signature`
  return undefined
}

export const hookSignatureHeaders: Check = {
  id: 'hook-signature-headers',
  description: 'Each delivery has webhook-id, webhook-timestamp (Unix seconds, within 5 minutes) and webhook-signature (v1,<base64>)',
  spec: 'docs/hooks.md (Standard Webhooks)',
  needsState: HOOKS_NEED_STATE,
  async run(ctx) {
    const s = await hookScenario(ctx)
    if (!s.ok) return skip(s.reason)
    let judged = 0
    for (const run of s.runs) {
      for (const [i, d] of run.delivered.entries()) {
        const problem = headerProblem(d.arrival)
        if (problem) return fail({ message: `delivery ${i + 1} to ${hookText(run.hook)} ${problem}` }, exampleInput(run.hook, d.event))
        judged++
      }
    }
    if (judged === 0) return skip('no delivery arrived to judge')
    return pass(plural(judged, 'delivery', 'deliveries'))
  },
}

export const hookSignatureValid: Check = {
  id: 'hook-signature-valid',
  description: 'Each delivery’s webhook-signature verifies: HMAC-SHA256 of id.timestamp.body under the hook’s secret',
  spec: 'docs/hooks.md (Standard Webhooks)',
  needsState: HOOKS_NEED_STATE,
  async run(ctx) {
    const s = await hookScenario(ctx)
    if (!s.ok) return skip(s.reason)
    let judged = 0
    for (const run of s.runs) {
      for (const [i, d] of run.delivered.entries()) {
        const a = d.arrival
        if (headerProblem(a) !== undefined) continue // the headers check judges those
        // The delivery's own timestamp as "now": freshness is not this check's part.
        const verdict = verify(run.secret, a.headers, a.bytes, Number(a.headers['webhook-timestamp']))
        if (!verdict.ok) {
          const which = run.hook.request.secret ? 'the secret the suite registered' : 'the secret the server returned at registration'
          return fail({ message: `delivery ${i + 1} to ${hookText(run.hook)}: ${verdict.message} (${which})` }, exampleInput(run.hook, d.event))
        }
        judged++
      }
    }
    if (judged === 0) return skip('no delivery carried well-formed signature headers')
    return pass(`${plural(judged, 'signature')} verified`)
  },
}
