/**
 * Alert hooks (optional: `--pro-key` and `--hook-receiver`). The suite listens on 127.0.0.1,
 * registers a hook through our hook API (`POST /api/hooks {url, min_severity}` with the pro
 * key; see docs/conformance.md), and judges what arrives: one POST per event, content type
 * application/json, a body that is one valid event, severity at or above the hook's minimum.
 * A server without that API, or that delivers nothing in the time allowed, is skipped.
 */
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { SEVERITIES } from '../../schema/index.js'
import { sleep } from '../../client/index.js'
import { validate } from '../../validate/index.js'
import { type Check, fail, pass, skip } from '../check.js'

interface Delivery {
  method: string
  contentType: string | undefined
  body: string
}

const WAIT_MS = 10_000
const MIN_SEVERITY = 'medium'

async function receiver() {
  const deliveries: Delivery[] = []
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      deliveries.push({ method: req.method ?? '', contentType: req.headers['content-type'], body: Buffer.concat(chunks).toString('utf8') })
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hook`,
    deliveries,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

export const hookDelivery: Check = {
  id: 'hook-delivery',
  description: 'Hook deliveries are one JSON POST per event, each a valid event at or above the hook’s minimum severity',
  spec: 'Events (alert hooks); DESIGN.md: Hooks',
  async run(ctx) {
    const { proKey, hookReceiver, baseUrl } = ctx.options
    if (!hookReceiver || !proKey) return skip('needs --pro-key and --hook-receiver')
    const hook = await receiver()
    try {
      const base = baseUrl.replace(/\/+$/, '')
      const registered = await (ctx.options.fetch ?? fetch)(`${base}/api/hooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'api-key': proKey },
        body: JSON.stringify({ url: hook.url, min_severity: MIN_SEVERITY }),
        signal: AbortSignal.timeout(15_000),
      })
      ctx.requestCount++
      await registered.text()
      if (registered.status === 404 || registered.status === 405 || registered.status === 501) {
        return skip(`the server does not offer the hook API (POST /api/hooks answered ${registered.status})`)
      }
      if (registered.status < 200 || registered.status > 299) return skip(`registering a hook was answered ${registered.status}`)
      await sleep(WAIT_MS, ctx.options.signal)
      if (hook.deliveries.length === 0) return skip(`no event was delivered within ${WAIT_MS / 1000} s`)
      const floor = SEVERITIES.indexOf(MIN_SEVERITY)
      for (const [i, d] of hook.deliveries.entries()) {
        const where = `delivery ${i + 1}`
        if (d.method !== 'POST') return fail({ message: `${where} used ${d.method}, not POST` })
        if (!/^application\/json\b/i.test(d.contentType ?? '')) return fail({ message: `${where} has content-type ${d.contentType ?? '(none)'}` })
        let event: unknown
        try {
          event = JSON.parse(d.body)
        } catch {
          return fail({ message: `${where}: the body is not JSON` })
        }
        const report = validate(event, { profile: 'strict' })
        if (!report.ok) return fail({ message: `${where}: the body is not a valid event: ${report.errors[0]!.pointer}: ${report.errors[0]!.message}` })
        const severity = (event as { leak: { severity: string } }).leak.severity
        const rank = SEVERITIES.indexOf(severity as (typeof SEVERITIES)[number])
        if (rank < 0 || rank > floor) return fail({ message: `${where} has severity ${JSON.stringify(severity)}, below the hook's minimum ${MIN_SEVERITY}` })
      }
      return pass(plural(hook.deliveries.length))
    } finally {
      await hook.close()
    }
  },
}

const plural = (n: number) => `${n} ${n === 1 ? 'delivery' : 'deliveries'}`
