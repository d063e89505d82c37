/** Broken: an unknown plugin is 404 with the usual error object, not the JSON string LeakIX's clients read. */
import { CORRECT, startFake } from '../fake/server.js'

export const meant = ['plugin-unknown']
export const start = () => startFake({ pluginNotFound: (res) => CORRECT.error(res, 404, 'Plugin not found') })
