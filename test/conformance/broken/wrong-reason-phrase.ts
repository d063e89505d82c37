/** Broken: 429 with the standard reason phrase `Too Many Requests` instead of `Rate-limited`. */
import { send, startFake } from '../fake/server.js'

export const meant = ['rate-limit-reason']
export const start = () =>
  startFake({
    limited: (res, ms) => send(res, 429, { title: 'Too Many Requests', description: 'slow down' }, { 'x-limited-for': `${Math.ceil(ms)}ms` }, 'Too Many Requests'),
  })
