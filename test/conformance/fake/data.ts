/** The fake's few events: example.com with three subdomains over two IPv4 addresses and one IPv6, and a look-alike. */
import { type Event, emptyEvent } from '../../../src/schema/index.js'

function event(type: 'service' | 'leak', ip: string, host: string, port: string, time: string, n: number): Event {
  const e = emptyEvent()
  e.event_type = type
  e.event_source = type === 'leak' ? 'elasticsearchopen' : 'http'
  e.event_pipeline = [e.event_source]
  e.event_fingerprint = n.toString(16).padStart(2, '0').repeat(32)
  e.ip = ip
  e.host = host
  e.port = port
  e.transport = ['tcp', 'http']
  e.protocol = 'http'
  e.summary = `HTTP/1.1 200 OK\r\nServer: nginx\r\n\r\n${host}`
  e.time = time
  e.ssl.certificate.fingerprint = (n + 100).toString(16).padStart(2, '0').repeat(32)
  if (type === 'leak') {
    e.leak.stage = 'open'
    e.leak.type = 'configuration'
    e.leak.severity = 'high'
    e.leak.dataset.rows = 1200
  }
  return e
}

export const FAKE_DOMAIN = 'example.com'
export const FAKE_IPS = ['93.184.216.34', '93.184.216.35', '2606:2800:220:1:248:1893:25c8:1946', '93.184.216.99']

export function fakeEvents(): Event[] {
  return [
    event('service', '93.184.216.34', 'example.com', '443', '2024-03-01T10:00:00.25Z', 1),
    event('service', '93.184.216.34', 'www.example.com', '80', '2024-03-02T11:30:00Z', 2),
    event('leak', '93.184.216.35', 'api.example.com', '9200', '2024-03-03T12:00:00.123456789Z', 3),
    event('service', '2606:2800:220:1:248:1893:25c8:1946', 'mail.example.com', '25', '2024-03-04T09:15:30.5Z', 4),
    event('service', '93.184.216.99', 'notexample.com', '443', '2024-03-05T08:00:00Z', 5),
    event('leak', '93.184.216.99', 'www.notexample.com', '27017', '2024-03-06T07:00:00.001Z', 6),
  ]
}
