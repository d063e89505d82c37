/**
 * The outputs the format's own filter tool (l9filter) writes that l9kit did not: dnsx JSON,
 * nmap greppable lines, masscan console lines and sx JSON lines, so events can be fed to
 * tools that read those. Each reads back with the matching `--from`. An event a format
 * cannot express (no address or port) is skipped and counted, never written half empty.
 */
import type { Event } from '../../schema/index.js'
import { printable } from '../../validate/printable.js'
import type { Output } from './types.js'

const udp = (e: Event) => e.transport.includes('udp')
const isArp = (e: Event) => e.transport.includes('arp') || (e.mac !== '' && e.port === '')

/** `--to dnsx`: `{"host","a"|"aaaa","timestamp"}`, what dnsx -json writes for one answer. */
export const dnsxOutput: Output = {
  name: 'dnsx',
  description: 'dnsx JSON lines: {"host","a" or "aaaa","timestamp"} per event with a name and an address',
  eol: '\n',
  format(e) {
    if (e.host === '') return { skip: 'no host name to write' }
    if (e.ip === '') return { skip: 'no IP address to write' }
    return JSON.stringify({ host: e.host, [e.ip.includes(':') ? 'aaaa' : 'a']: [e.ip], timestamp: e.time })
  },
}

/** A value inside one of nmap's `/`-separated port fields: nmap writes `/` as `|`. */
const portField = (text: string) => text.replaceAll('/', '|').replace(/[\t\r\n]+/g, ' ').replace(/, (?=\d)/g, ' ')

/** `--to nmap-grep`: `Host: ip (name)<TAB>Ports: port/open/proto//service//version/`. */
export const nmapGrepOutput: Output = {
  name: 'nmap-grep',
  description: 'nmap greppable lines (-oG): one Host: line per event with a port',
  eol: '\n',
  format(e) {
    if (e.ip === '' && e.host === '') return { skip: 'no ip or host to write' }
    if (e.port === '') return { skip: 'no port to write' }
    const tls = e.transport.includes('tls') && e.protocol !== 'https' && e.protocol !== 'tls'
    const service = e.protocol === 'https' ? 'ssl|http' : `${tls ? 'ssl|' : ''}${portField(e.protocol === 'tls' ? 'ssl' : e.protocol)}`
    const sw = e.service.software
    const version = portField([sw.name, sw.version].filter(Boolean).join(' '))
    const name = e.ip !== '' ? e.host : ''
    // The tab is the format's; a value's own control characters are escaped.
    return `Host: ${printable(e.ip || e.host)} (${printable(name)})\tPorts: ${printable(`${e.port}/open/${udp(e) ? 'udp' : 'tcp'}//${service}//${version}/`)}`
  },
}

/** `--to masscan-console`: `Discovered open port 80/tcp on 192.0.2.1`. */
export const masscanConsoleOutput: Output = {
  name: 'masscan-console',
  description: "masscan console lines: 'Discovered open port PORT/PROTO on IP' per event with an IP and a port",
  eol: '\n',
  format(e) {
    if (e.ip === '') return { skip: 'no IP address to write' }
    if (e.port === '') return { skip: 'no port to write' }
    return printable(`Discovered open port ${e.port}/${udp(e) ? 'udp' : 'tcp'} on ${e.ip}`)
  },
}

/** `--to sx`: sx's --json lines, `{"scan","ip","port"}`, or `{"scan":"arp","ip","mac","vendor"}`. */
export const sxOutput: Output = {
  name: 'sx',
  description: 'sx JSON lines: {"scan","ip","port"}, or {"scan":"arp","ip","mac","vendor"} for ARP results',
  eol: '\n',
  format(e) {
    if (e.ip === '') return { skip: 'no IP address to write' }
    if (isArp(e)) return JSON.stringify({ scan: 'arp', ip: e.ip, mac: e.mac, vendor: e.vendor })
    if (e.port === '') return { skip: 'no port to write' }
    // The scan sx ran, when the event came from sx (its tag), else the one that finds this port.
    const scan = e.tags.find((t) => t.startsWith('scan:'))?.slice(5) || (udp(e) ? 'udp' : 'tcpsyn')
    return JSON.stringify({ scan, ip: e.ip, port: Number(e.port) })
  },
}
