/**
 * Censys v2 hosts, one per line (as bulk exports hold them), gzip-compressed → event
 * documents: throughput as a ratio of gunzip + readLines + JSON.parse of the same file, and
 * peak RSS (default ~100 MB before compression; L9KIT_BENCH_MB to change it).
 */
import { censys } from '../src/convert/censys/index.js'
import { gzipBench, noise } from './support/gzip-convert.js'


/** The i-th host: HTTPS with a certificate, HTTP, and every third host SSH too. */
function record(i: number): string {
  const ip = `198.51.${(i >> 8) & 255}.${i & 255}`
  const name = `h${i % 50_000}.example${i % 97}.com`
  const observed = `2024-09-${String(1 + (i % 28)).padStart(2, '0')}T${String(i % 24).padStart(2, '0')}:03:07.${String(i % 1_000_000_000).padStart(9, '0')}Z`
  const headers = { Server: ['nginx'], Content_Type: ['text/html; charset=utf-8'], Date: ['Mon, 23 Sep 2024 12:03:07 GMT'], Set_Cookie: [`sid=${i.toString(36)}; Path=/; HttpOnly`], X_Frame_Options: ['SAMEORIGIN'], _encoding: { Server: 'DISPLAY_UTF8', Content_Type: 'DISPLAY_UTF8', Date: 'DISPLAY_UTF8', Set_Cookie: 'DISPLAY_UTF8', X_Frame_Options: 'DISPLAY_UTF8' } }
  const software = [{ uniform_resource_identifier: 'cpe:2.3:a:f5:nginx:1.24.0:*:*:*:*:*:*:*', part: 'a', vendor: 'F5', product: 'nginx', version: '1.24.0', source: 'OSI_APPLICATION_LAYER' }]
  const http = (scheme: string) => ({
    request: { method: 'GET', uri: `${scheme}://${ip}/`, headers: { User_Agent: ['Mozilla/5.0 (compatible; CensysInspect/1.1)'], _encoding: { User_Agent: 'DISPLAY_UTF8' } } },
    response: { protocol: 'HTTP/1.1', status_code: 200, status_reason: 'OK', headers, body_size: 500 + (i % 9000), html_title: `Portal ${i % 31}`, body_hashes: [`sha256:${noise(i, 64)}`], body: `<html><!-- ${noise(i + 1, 300)} --></html>` },
    supports_http2: i % 2 === 0,
  })
  const services: object[] = [
    { _decoded: 'http', extended_service_name: 'HTTPS', observed_at: observed, perspective_id: 'PERSPECTIVE_NTT', port: 443, service_name: 'HTTP', source_ip: '198.18.0.1', transport_protocol: 'TCP', truncated: false, banner: 'HTTP/1.1 200 OK\r\nServer: nginx\r\n', http: http('https'), software, labels: ['login-page'],
      tls: { version_selected: i % 4 ? 'TLSv1_3' : 'TLSv1_2', cipher_selected: 'TLS_AES_128_GCM_SHA256', certificates: { leaf_fp_sha_256: noise(i + 2, 64), leaf_data: { names: [name, `*.example${i % 97}.com`], subject_dn: `CN=${name}`, issuer_dn: "C=US, O=Let's Encrypt, CN=R3", pubkey_bit_size: 2048, pubkey_algorithm: 'RSA', fingerprint: noise(i + 2, 64), issuer: { common_name: ['R3'] }, subject: { common_name: [name] } } }, ja3s: noise(i + 3, 32) },
      jarm: { fingerprint: '3fd3fd0003fd3fd0001d3fd3fd3fd32d8f5a4dc3d0d4c4f3a2bbfd1f5b1e0c77' } },
    { _decoded: 'http', extended_service_name: 'HTTP', observed_at: observed, port: 80, service_name: 'HTTP', transport_protocol: 'TCP', banner: 'HTTP/1.1 301 Moved Permanently\r\n', http: http('http'), software },
  ]
  if (i % 3 === 0) services.push({ _decoded: 'ssh', extended_service_name: 'SSH', observed_at: observed, port: 22, service_name: 'SSH', transport_protocol: 'TCP', banner: 'SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13', ssh: { endpoint_id: { raw: 'SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13', protocol_version: '2.0', software_version: 'OpenSSH_9.6p1', comment: 'Ubuntu-3ubuntu13' }, server_host_key: { fingerprint_sha256: noise(i + 4, 64) } } })
  return JSON.stringify({
    ip,
    services,
    location: { continent: 'Europe', country: 'Netherlands', country_code: 'NL', city: 'Amsterdam', postal_code: '1012', timezone: 'Europe/Amsterdam', province: 'North Holland', coordinates: { latitude: 52.37403, longitude: 4.88969 } },
    location_updated_at: '2024-09-01T00:00:00Z',
    autonomous_system: { asn: 64500 + (i % 20), description: 'EXAMPLE-AS', bgp_prefix: `198.51.${(i >> 8) & 255}.0/24`, name: `Example Networks ${i % 20}`, country_code: 'NL' },
    autonomous_system_updated_at: '2024-09-01T00:00:00Z',
    dns: { names: [name], reverse_dns: { names: [`static-${i}.example.net`] } },
    last_updated_at: observed,
  })
}

await gzipBench({ name: 'censys', converter: censys, record, self: import.meta.url })
