/** Broken: any api-key at all gets the registered plan (more subdomains than anonymous callers). */
import { startFake } from '../fake/server.js'

// Served at all, and served more: both key checks fail, and no other.
export const meant = ['wrong-key-not-elevated', 'wrong-key-refused']
export const start = () => startFake({ plan: (key) => (key === undefined ? 'anonymous' : 'registered') })
