/** Broken: `x-limited-for` as a bare integer (seconds?), which a Go duration never is. */
import { send, startFake } from '../fake/server.js'

export const meant = ['rate-limit-header']
export const start = () =>
  startFake({
    limited: (res, ms) => send(res, 429, { title: 'Too Many Requests', description: 'slow down' }, { 'x-limited-for': String(Math.ceil(ms / 1000)) }, 'Rate-limited'),
  })
