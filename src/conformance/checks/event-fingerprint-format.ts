/** Fingerprints are 64 hexadecimal characters (or empty, for unknown). */
import { type Check, fail, pass, skip } from '../check.js'
import { knownAnswers } from './known.js'
import { plural, problemAt, seenEvents } from './lib.js'

const HEX64 = /^(?:[0-9a-fA-F]{64})?$/

export const eventFingerprintFormat: Check = {
  id: 'event-fingerprint-format',
  description: '`event_fingerprint` and the certificate `fingerprint` are 64 hexadecimal characters (or empty)',
  spec: 'Resources: Event document (event_fingerprint, ssl.certificate.fingerprint)',
  async run(ctx) {
    await knownAnswers(ctx)
    const events = seenEvents(ctx)
    for (const { event, pointer, response } of events) {
      const cert = (event.ssl as { certificate?: { fingerprint?: unknown } } | undefined)?.certificate
      for (const [member, value] of [['event_fingerprint', event.event_fingerprint], ['ssl/certificate/fingerprint', cert?.fingerprint]] as const) {
        if (typeof value !== 'string' || !HEX64.test(value)) {
          return fail(problemAt(response, `${pointer}/${member} is ${JSON.stringify(value)}, not 64 hexadecimal characters`))
        }
      }
    }
    if (events.length === 0) return skip('no event was seen (give --domain or --ip names the server holds)')
    return pass(plural(events.length, 'event'))
  },
}
