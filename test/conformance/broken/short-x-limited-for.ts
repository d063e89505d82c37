/** Broken: `x-limited-for` advertises a quarter of the real wait, so waiting it is not enough. */
import { CORRECT, startFake } from '../fake/server.js'

export const meant = ['rate-limit-wait']
export const start = () => startFake({ limited: (res, ms) => CORRECT.limited(res, ms / 4) })
