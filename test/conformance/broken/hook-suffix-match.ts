/** Broken: a watched domain covers any host ending with it, so `notexample.com` alerts for `example.com`. */
import { CORRECT_HOOKS } from '../fake/hooks.js'
import { startFake } from '../fake/server.js'

export const meant = ['hook-look-alikes']
export const start = () =>
  startFake({
    hooks: {
      ...CORRECT_HOOKS,
      covers: (resource, event) => (resource.type === 'domain' ? event.host.toLowerCase().endsWith(resource.value) : CORRECT_HOOKS.covers(resource, event)),
    },
  })
