/** Broken: the HMAC key is the secret's text, not the base64-decoded bytes after `whsec_`. */
import { CORRECT_HOOKS, textKeyedSignature } from '../fake/hooks.js'
import { startFake } from '../fake/server.js'

export const meant = ['hook-signature-valid']
export const start = () =>
  startFake({
    hooks: {
      ...CORRECT_HOOKS,
      signatureHeaders: (secret, id, timestamp, body) => ({ 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': textKeyedSignature(secret, id, timestamp, body) }),
    },
  })
