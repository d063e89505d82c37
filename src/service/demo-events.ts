/**
 * A small demo dataset, built in code, loaded with the bundled corpus by the built-in default
 * so that host, domain and subdomain lookups have something to show: a spread of subdomains of
 * example.com (some two levels deep, several IPs, IPv6), a look-alike (notexample.com), and a
 * few leaks. Documents are written in the lenient form real tools emit (numeric ports, missing
 * members); ingest normalises them like any other input.
 */
interface Site {
  host: string
  ips: string[]
  ports: number[]
  software: [name: string, version: string]
  title: string
}

const SITES: Site[] = [
  { host: 'dev.example.com', ips: ['192.0.2.31'], ports: [80, 443], software: ['nginx', '1.22.1'], title: 'Dev portal' },
  { host: 'staging.example.com', ips: ['192.0.2.32', '192.0.2.33'], ports: [443], software: ['nginx', '1.25.3'], title: 'Staging' },
  { host: 'cdn.example.com', ips: ['198.51.100.70', '198.51.100.71', '2001:db8:cd::1'], ports: [443], software: ['Varnish', '7.4'], title: '' },
  { host: 'vpn.example.com', ips: ['203.0.113.44'], ports: [443], software: ['OpenVPN Access Server', '2.12'], title: 'OpenVPN Access Server' },
  { host: 'grafana.internal.example.com', ips: ['10.20.0.5'], ports: [3000], software: ['Grafana', '10.2.2'], title: 'Grafana' },
  { host: 'jenkins.ci.example.com', ips: ['192.0.2.90'], ports: [8080], software: ['Jetty', '10.0.18'], title: 'Dashboard [Jenkins]' },
  { host: 'status.example.com', ips: ['2001:db8:5::80'], ports: [443], software: ['Caddy', '2.7.6'], title: 'Status' },
  { host: 'shop.example.org', ips: ['198.51.100.150'], ports: [443], software: ['Apache httpd', '2.4.58'], title: 'Shop' },
  { host: 'www.notexample.com', ips: ['203.0.113.66'], ports: [443], software: ['nginx', '1.18.0'], title: 'Not Example' },
]

const BASE = Date.UTC(2024, 0, 15, 8, 0, 0)

/** The demo documents (fresh objects each call). */
export function demoEvents(): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = []
  let step = 0
  for (const site of SITES) {
    for (const ip of site.ips) {
      for (const port of site.ports) {
        step++
        const tls = port !== 80 && port !== 3000 && port !== 8080
        const [name, version] = site.software
        const server = `${name}/${version}`
        const event: Record<string, unknown> = {
          event_type: 'service',
          event_source: 'HttpPlugin',
          event_pipeline: ['tcpid', 'HttpPlugin'],
          ip,
          host: site.host,
          reverse: `host-${step}.example-hosting.net`,
          port,
          transport: tls ? ['tcp', 'tls', 'http'] : ['tcp', 'http'],
          protocol: tls ? 'https' : 'http',
          http: { root: '/', url: '/', status: 200, length: 1024 + step, header: { server, 'content-type': 'text/html' }, title: site.title },
          summary: `HTTP/1.1 200 OK\r\nServer: ${server}\r\nContent-Type: text/html\r\n\r\n${site.title}`,
          time: new Date(BASE + step * 3_600_123).toISOString(),
          service: { software: { name, version } },
          tags: [],
          network: { organization_name: 'Example Hosting', asn: 64500 + (step % 4) },
        }
        if (tls) event.ssl = { detected: true, enabled: true, version: 'TLSv1.3', certificate: { cn: site.host, domain: [site.host] } }
        events.push(event)
      }
    }
  }
  events.push(
    leak('grafana.internal.example.com', '10.20.0.5', 3000, 'GrafanaOpenPlugin', 'high', 'Grafana dashboard reachable without login', '2024-01-20T11:22:33.444555666Z'),
    leak('jenkins.ci.example.com', '192.0.2.90', 8080, 'JenkinsOpenPlugin', 'critical', 'Jenkins script console open to anonymous users', '2024-01-21T07:05:00Z'),
    leak('staging.example.com', '192.0.2.33', 443, 'DotEnvConfigPlugin', 'medium', 'GET /.env returned 200 with APP_KEY=', '2024-01-19T23:59:59.999999Z'),
    leak('www.notexample.com', '203.0.113.66', 443, 'GitConfigHttpPlugin', 'low', 'GET /.git/config returned a repository config', '2024-01-18T12:00:00.5Z'),
  )
  return events
}

function leak(host: string, ip: string, port: number, source: string, severity: string, summary: string, time: string): Record<string, unknown> {
  return {
    event_type: 'leak',
    event_source: source,
    event_pipeline: ['tcpid', source],
    ip,
    host,
    port: String(port),
    summary,
    time,
    leak: { stage: 'open', type: 'configuration', severity, dataset: { rows: 0, files: 1, size: summary.length } },
  }
}
