import { request as httpRequest } from 'node:http'
import { MemoryStore, startService } from '../src/service/index.js'
import { abuseConfig, costlyEvent, KEYS } from '../test/service/abuse/support.js'
const store = new MemoryStore()
store.ingest(Array.from({ length: 12000 }, (_, i) => costlyEvent(i)))
const service = await startService({ store, config: abuseConfig({ bulk_idle_timeout_ms: 1000 }), host: '127.0.0.1', port: 0 })
const url = new URL(service.url)
const t0 = performance.now()
const req = httpRequest({ host: url.hostname, port: url.port, path: '/bulk/service?q=*', headers: { 'api-key': KEYS.pro }, agent: false }, (res) => {
  res.pause()
  console.log('head', res.statusCode, (performance.now() - t0).toFixed(0))
  for (const ev of ['close', 'aborted', 'error', 'end']) res.on(ev, (e) => console.log('res', ev, String(e ?? ''), (performance.now() - t0).toFixed(0)))
  req.socket?.on('close', () => console.log('socket close', (performance.now() - t0).toFixed(0)))
})
req.end()
setTimeout(async () => { console.log('timeout'); await service.close(10); process.exit(0) }, 8000)
