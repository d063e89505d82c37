/** Broken: deliveries carry webhook-id and webhook-timestamp but no webhook-signature. */
import { CORRECT_HOOKS } from '../fake/hooks.js'
import { startFake } from '../fake/server.js'

export const meant = ['hook-signature-headers']
export const start = () =>
  startFake({ hooks: { ...CORRECT_HOOKS, signatureHeaders: (_secret, id, timestamp) => ({ 'webhook-id': id, 'webhook-timestamp': String(timestamp) }) } })
