/** nmap converters: XML (`-oX`, streamed) and greppable (`-oG`). */
export { nmapXml } from './xml.js'
export { nmapGrep } from './grep.js'
