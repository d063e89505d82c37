/** One URL per event, by the format's URL rule (src/event eventUrl). */
import { eventUrl } from '../../event/index.js'
import { printable } from '../../validate/printable.js'
import type { Output } from './types.js'

/** `--to url`. */
export const urlOutput: Output = {
  name: 'url',
  description: 'the URL of each event (https when transport has tls and http; host:port without http)',
  eol: '\n',
  format(event) {
    if (event.host === '' && event.ip === '') return { skip: 'no ip or host to write' }
    return printable(eventUrl(event))
  },
}
