/** Broken: a well-formed address or name the server does not know is refused as malformed (400). */
import { CORRECT, startFake } from '../fake/server.js'

export const meant = ['unknown-resource-empty']
export const start = () => startFake({ unknown: (res) => CORRECT.error(res, 400, 'nothing known') })
