/** Broken: the first matching event of each ingest batch is never delivered. */
import { CORRECT_HOOKS } from '../fake/hooks.js'
import { startFake } from '../fake/server.js'

export const meant = ['hook-delivered']
export const start = () => startFake({ hooks: { ...CORRECT_HOOKS, order: (batch) => batch.slice(1) } })
