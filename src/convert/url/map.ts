/**
 * One URL line → one minimal `service` event, as the format's own filter tool converts URLs:
 * the scheme's default port when none is given; `tcp`, then `tls` for TLS schemes (with
 * `ssl.enabled`), then `http` for HTTP schemes; the path in `http.url`. `time` is the run's start.
 */
import { emptyEvent } from '../../schema/empty.js'
import { HTTP_SCHEMES, TLS_SCHEMES, parseUrl, setAddress } from '../common/net.js'
import type { Mapped } from '../common/records.js'
import type { ConvertContext } from '../types.js'

/** One URL line → one event, or why not. */
export function mapUrl(line: string, ctx: ConvertContext): Mapped {
  const text = line.split(/\s+/)[0] ?? ''
  const url = parseUrl(text)
  if (!url) return { reason: `'${text.length > 60 ? `${text.slice(0, 57)}...` : text}' is not an absolute URL (scheme://host[:port][/path])` }
  if (url.port === '') return { reason: `no port in '${text}' and no default port known for scheme '${url.scheme}'` }
  const e = emptyEvent()
  e.event_type = 'service'
  e.time = ctx.runStart
  setAddress(e, url.host)
  e.port = url.port
  e.protocol = url.scheme
  e.transport = ['tcp']
  if (TLS_SCHEMES.has(url.scheme)) {
    e.transport.push('tls')
    e.ssl.enabled = true
  }
  if (HTTP_SCHEMES.has(url.scheme)) {
    e.transport.push('http')
    e.http.url = url.path === '/' ? '' : url.path
  }
  return e
}
