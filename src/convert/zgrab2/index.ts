/** ZGrab2 JSON Lines output: one line per target, one event per http/tls/ssh module result. */
import { hasMembers, jsonHead, recordConverter } from '../common/records.js'
import { mapZgrab2 } from './map.js'

/** `--from zgrab2`. */
export const zgrab2 = recordConverter({
  name: 'zgrab2',
  tool: 'zgrab2',
  description: 'ZGrab2 JSON Lines: http, tls/https and ssh module results',
  detect(head) {
    const text = jsonHead(head)
    return text !== undefined && hasMembers(text, 'data') && /"data"\s*:\s*\{\s*"[^"]+"\s*:\s*\{/.test(text) && /"(?:status|result)"\s*:/.test(text)
  },
  map: mapZgrab2,
})
