/** Golden files: corpus/tools/masscan-{json,ndjson,list,console}/. */
import { masscanConsole, masscanJson, masscanList, masscanNdjson } from '../../../src/convert/masscan/index.js'
import { goldenSuite } from '../../support/golden.js'

goldenSuite(masscanJson, { dir: 'masscan-json', ext: 'json' })
goldenSuite(masscanNdjson, { dir: 'masscan-ndjson', ext: 'ndjson' })
goldenSuite(masscanList, { dir: 'masscan-list', ext: 'txt' })
goldenSuite(masscanConsole, { dir: 'masscan-console', ext: 'txt' })
