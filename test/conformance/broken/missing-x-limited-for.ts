/** Broken: 429 without `x-limited-for`. */
import { send, startFake } from '../fake/server.js'

export const meant = ['rate-limit-header']
export const start = () => startFake({ limited: (res) => send(res, 429, { title: 'Too Many Requests', description: 'slow down' }, {}, 'Rate-limited') })
