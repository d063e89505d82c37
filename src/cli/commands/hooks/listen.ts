/** `l9kit hooks listen`: print each hook delivery as it arrives, verifying its signature when given the secret. */
import { secretKey } from '../../../webhooks/signature.js'
import { parse } from '../../args.js'
import { EXIT, type Io, UsageError } from '../../command.js'
import { type Received, type Receiver, startReceiver } from './receiver.js'
import { portOption } from '../../args.js'
import { untilStopped } from '../../stop.js'
import { noPositionals, nonEmpty } from './shared.js'

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  secret: { type: 'string' },
  json: { type: 'boolean' },
} as const

/** The default port: free on most machines, and the one docs and the README use. */
export const DEFAULT_LISTEN_PORT = 9000

/** Runs the receiver until the stop signal; exit 0, or 2 for bad options or when it cannot listen. */
export async function listen(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse('hooks listen', argv, OPTIONS)
  noPositionals('hooks listen', positionals)
  const port = portOption('hooks listen', values.port, DEFAULT_LISTEN_PORT)
  const host = values.host ?? '127.0.0.1'
  const secret = values.secret ?? nonEmpty(io.env.L9KIT_HOOK_SECRET)
  if (secret !== undefined && secretKey(secret) === null) {
    throw new UsageError("hooks listen: --secret must be 'whsec_' followed by base64 (the secret 'l9kit hooks add' printed)")
  }
  const json = values.json ?? false
  // With --json, standard output carries only the event bodies; everything else goes to stderr.
  const info = json ? io.stderr : io.stdout
  let count = 0
  let refused = 0
  let receiver: Receiver
  try {
    receiver = await startReceiver({
      host,
      port,
      ...(secret === undefined ? {} : { secret }),
      onDelivery(received) {
        count++
        if (received.status >= 400) refused++
        info.write(`${deliveryLine(received)}\n`)
        if (json && received.status < 300) io.stdout.write(`${jsonLine(received)}\n`)
      },
    })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const why = code === 'EADDRINUSE' ? 'the address is already in use (try another --port, or --port 0)' : code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' ? 'no such local address' : (error as Error).message
    throw new UsageError(`hooks listen: cannot listen on ${host}:${port}: ${why}`)
  }
  info.write(`listening on ${receiver.url} (${secret === undefined ? 'signatures not checked: no --secret' : 'checking signatures'})\n`)
  await untilStopped(io)
  await receiver.close()
  if (!io.quiet) io.stderr.write(`stopped: ${count} ${count === 1 ? 'request' : 'requests'}, ${refused} refused\n`)
  return EXIT.ok
}

/**
 * One line per request: webhook-id, its timestamp (UTC), event type, ip:port, severity, then
 * what the receiver answered. Values it could not read are `-`.
 */
export function deliveryLine(r: Received): string {
  const event = (typeof r.json === 'object' && r.json !== null ? r.json : {}) as Record<string, unknown>
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : '-')
  const ip = text(event.ip)
  const endpoint = ip.includes(':') ? `[${ip}]:${text(event.port)}` : `${ip}:${text(event.port)}`
  const leak = event.leak as { severity?: unknown } | undefined
  const severity = event.event_type === 'leak' ? text(leak?.severity) : '-'
  const fields = [text(r.id), stampText(r.timestamp), text(event.event_type), endpoint, severity]
  const verdict = r.status >= 400 ? `REFUSED ${r.status}: ${r.refusal ?? ''}` : r.signature === undefined ? 'ok (signature not checked)' : 'ok, signature valid'
  return `${fields.join('  ')}  ${verdict}`
}

/** The body as one JSON Lines line: the bytes as sent when they hold no line break, else re-serialised. */
function jsonLine(r: Received): string {
  const text = r.body.toString('utf8')
  return /[\r\n]/.test(text) ? JSON.stringify(r.json) : text
}

/** `webhook-timestamp` as a UTC time; `-` when absent, the raw text when it is not Unix seconds. */
function stampText(stamp: string | undefined): string {
  if (stamp === undefined) return '-'
  if (!/^[0-9]{1,12}$/.test(stamp)) return JSON.stringify(stamp)
  return new Date(Number(stamp) * 1000).toISOString().replace('.000Z', 'Z')
}
