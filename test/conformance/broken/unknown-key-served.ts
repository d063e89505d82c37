/** Broken: an unknown api-key is served as if no key was sent. */
import { FAKE_KEY, startFake } from '../fake/server.js'

export const meant = ['wrong-key-refused']
export const start = () => startFake({ plan: (key) => (key === FAKE_KEY ? 'registered' : 'anonymous') })
