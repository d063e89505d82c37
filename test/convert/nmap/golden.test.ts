/** Golden files: corpus/tools/nmap-xml/*.xml and corpus/tools/nmap-grep/*.gnmap. */
import { nmapGrep, nmapXml } from '../../../src/convert/nmap/index.js'
import { goldenSuite } from '../../support/golden.js'

goldenSuite(nmapXml, { dir: 'nmap-xml', ext: 'xml' })
goldenSuite(nmapGrep, { dir: 'nmap-grep', ext: 'gnmap' })
