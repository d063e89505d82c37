/** Broken: the events of one ingest batch are queued to each hook newest first. */
import { CORRECT_HOOKS } from '../fake/hooks.js'
import { startFake } from '../fake/server.js'

export const meant = ['hook-order']
export const start = () => startFake({ hooks: { ...CORRECT_HOOKS, order: (batch) => [...batch].reverse() } })
