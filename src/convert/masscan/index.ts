/** masscan converters: JSON (-oJ), JSON Lines (-oD), list (-oL) and console lines. */
export { masscanConsole } from './console.js'
export { masscanJson } from './json.js'
export { masscanList } from './list.js'
export { masscanNdjson } from './ndjson.js'
