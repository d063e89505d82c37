/**
 * masscan banner records → event fields. The banner text is always the summary; the banner's
 * type decides the protocol, the transport layers and which structured fields it fills.
 */
import type { Event } from '../../schema/index.js'
import { HeaderBuilder, parseRawHeaders } from '../common/headers.js'
import { productToken, sshSoftware } from '../common/software.js'
import { sshIdentification, sshMajor, tlsVersion } from '../common/tls.js'
import { TLS_CIPHERS } from './ciphers.js'
import { fillCertificate } from './x509.js'

/** Banner types that name an application protocol (masscan's names → ours). */
const PROTOCOLS: Record<string, string> = {
  ftp: 'ftp',
  smtp: 'smtp',
  pop: 'pop3',
  imap: 'imap',
  telnet: 'telnet',
  rdp: 'rdp',
  vnc: 'vnc',
  'vnc-info': 'vnc',
  memcached: 'memcached',
  ntp: 'ntp',
  snmp: 'snmp',
  smb: 'smb',
  'dns-ver': 'dns',
  nbtstat: 'netbios-ns',
  minecraft: 'minecraft',
  coap: 'coap',
  isakmp: 'isakmp',
}

export function applyBanner(event: Event, service: string, text: string): void {
  event.summary = text
  switch (service) {
    case 'http':
      http(event)
      httpResponse(event, text)
      return
    case 'http.server': {
      http(event)
      const headers = new HeaderBuilder()
      headers.add('server', text)
      event.http.header = headers.map
      const product = productToken(text)
      if (product.version !== '') Object.assign(event.service.software, product)
      return
    }
    case 'title':
      http(event)
      event.http.title = text
      return
    case 'html':
      http(event)
      return
    case 'ssh':
      sshBanner(event, text)
      return
    case 'ssl':
      tls(event)
      sslHello(event, text)
      return
    case 'X509':
      tls(event)
      fillCertificate(event.ssl.certificate, text)
      return
    case 'X509CA':
    case 'heartbleed':
    case 'ticketbleed':
      // A CA certificate of the chain is not the server's: kept in the summary only.
      tls(event)
      return
    default:
      event.protocol = PROTOCOLS[service] ?? ''
  }
}

function http(event: Event): void {
  event.protocol = 'http'
  event.transport.push('http')
}

function tls(event: Event): void {
  event.transport.push('tls')
  event.ssl.enabled = true
  event.ssl.detected = true
}

/** masscan's `http` banner is the response head: status line, then header lines. */
function httpResponse(event: Event, text: string): void {
  const headers = new HeaderBuilder()
  const status = /^HTTP\/\d(?:\.\d)? (\d{3})\b/.exec(parseRawHeaders(text, headers))
  if (status) event.http.status = Number(status[1])
  if (headers.size > 0) event.http.header = headers.map
}

/** `SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13`: protocol version 2, software OpenSSH 9.6p1. */
function sshBanner(event: Event, text: string): void {
  event.protocol = 'ssh'
  const line = text.split(/\r?\n/)[0] ?? ''
  event.ssh.banner = line
  const id = sshIdentification(line)
  if (id.version === '') return
  event.ssh.version = sshMajor(id.version)
  const software = sshSoftware(id.software)
  event.service.software.name = software.name
  event.service.software.version = software.version
}

/** `TLS/1.2 cipher:0xc02f, www.example.com`: protocol version and cipher suite (IANA name). */
function sslHello(event: Event, text: string): void {
  const version = /^(?:SSLv3|TLS\/1\.[0-3])(?=\s|$)/.exec(text)
  if (version) event.ssl.version = tlsVersion(version[0].replace('/', ''))
  const cipher = /\bcipher:0x([0-9a-fA-F]{1,4})\b/.exec(text)
  if (cipher) event.ssl.cypher_suite = TLS_CIPHERS[parseInt(cipher[1]!, 16)] ?? ''
}
