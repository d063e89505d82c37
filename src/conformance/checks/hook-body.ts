/**
 * Each delivery is one POST with `content-type: application/json` whose body is one
 * strict-valid event, byte for byte the same as that event in the lookup's answer (the service
 * sends the stored event unchanged).
 */
import { validate } from '../../validate/index.js'
import { type Check, fail, pass, skip } from '../check.js'
import { HOOKS_NEED_STATE, hookScenario } from './hook-scenario.js'
import { exampleInput, hookText } from './hook-text.js'
import { plural } from './lib.js'

export const hookBody: Check = {
  id: 'hook-body',
  description: 'Each delivery is a POST of application/json whose body is one strict-valid event, byte-equal to it as the lookup returns it',
  spec: 'Events (alert hooks); docs/hooks.md',
  needsState: HOOKS_NEED_STATE,
  async run(ctx) {
    const s = await hookScenario(ctx)
    if (!s.ok) return skip(s.reason)
    let judged = 0
    let compared = 0
    for (const run of s.runs) {
      for (const [i, d] of run.delivered.entries()) {
        const where = `delivery ${i + 1} to ${hookText(run.hook)}`
        const input = exampleInput(run.hook, d.event)
        const a = d.arrival
        if (a.method !== 'POST') return fail({ message: `${where} used ${a.method}, not POST` }, input)
        if (!/^application\/json\s*(;|$)/i.test(a.headers['content-type'] ?? '')) return fail({ message: `${where} has content-type ${a.headers['content-type'] ?? '(none)'}, not application/json` }, input)
        let event: unknown
        try {
          event = JSON.parse(a.body)
        } catch {
          return fail({ message: `${where}: the body is not JSON: ${JSON.stringify(a.body.slice(0, 80))}` }, input)
        }
        const report = validate(event, { profile: 'strict' })
        if (!report.ok) return fail({ message: `${where}: the body is not a strict-valid event: ${report.errors[0]!.pointer || '(body)'}: ${report.errors[0]!.message}` }, input)
        if (!d.event) return fail({ message: `${where} carries an event the suite did not ingest (event_fingerprint ${JSON.stringify((event as { event_fingerprint?: unknown }).event_fingerprint)})` }, input)
        judged++
        const looked = s.lookedUp.get(d.event.event.event_fingerprint)
        if (looked === undefined) continue
        compared++
        if (looked.text !== a.body) {
          return fail({ message: `${where}: the body differs from the event in GET ${looked.path} at byte ${firstDifference(looked.text, a.body)} (${a.body.length} bytes delivered, ${looked.text.length} in the lookup)` }, input)
        }
      }
    }
    if (judged === 0) return skip('no delivery arrived to judge')
    return pass(`${plural(judged, 'delivery', 'deliveries')}, ${compared} compared with the lookups`)
  },
}

function firstDifference(a: string, b: string): number {
  let i = 0
  while (i < a.length && i < b.length && a[i] === b[i]) i++
  return Buffer.byteLength(a.slice(0, i))
}
