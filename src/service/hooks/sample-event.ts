/**
 * The event POST /api/hooks/:id/test sends: a leak on a documentation address and a name under
 * `example.com`, stamped with the current time, canonical like every stored event.
 */
import { normalize, serializeEvent } from '../../normalize/index.js'
import type { QueuedEvent } from '../store/hook-types.js'

/** A fresh sample event (its time, and so its fingerprint, change with each call). */
export function sampleEvent(now: Date = new Date()): QueuedEvent {
  const result = normalize(
    {
      event_type: 'leak',
      event_source: 'l9kit-hook-test',
      event_pipeline: ['l9kit'],
      ip: '192.0.2.1',
      host: 'hook-test.example.com',
      port: '443',
      protocol: 'https',
      transport: ['tcp', 'tls', 'http'],
      summary: 'Test delivery from l9kit (POST /api/hooks/:id/test): not a real finding.',
      time: now.toISOString(),
      leak: { stage: 'open', type: 'test', severity: 'info' },
    },
    { fingerprint: 'missing' },
  )
  if (!result.ok) throw new Error(`the sample event is not valid: ${JSON.stringify(result.errors)}`)
  return { fingerprint: result.event.event_fingerprint, json: serializeEvent(result.event) }
}
