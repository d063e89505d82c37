/**
 * Recording a run's exchanges for the HAR cassette (`--report har:FILE`, report/har.ts): every
 * request the suite sends through its fetch, with the answer (bodies read from a copy, at most
 * BODY_CAP characters, so a streamed export is not read to its end), the checks that used it,
 * and who it was sent as. Secrets stay in memory only: the HAR writer redacts them.
 */

/** Most characters of a body kept. */
export const BODY_CAP = 1_048_576

export interface RecordedMessage {
  /** Unix seconds with a fraction, as HAR tools write WebSocket messages. */
  time: number
  data: string
}

export interface Exchange {
  /** When the request started (ISO 8601). */
  startedAt: string
  /** Milliseconds to the end of the recorded body. */
  timeMs: number
  request: { method: string; url: string; headers: [string, string][]; body?: string }
  response?: { status: number; statusText: string; headers: [string, string][]; body: string; truncated: boolean }
  /** Why no answer came (network, timeout, abort). */
  error?: string
  /** The checks that used this answer (`discovery` before the first). */
  checks: string[]
  /** Who it was sent as: `key`, `pro`, `wrong`, `anonymous`, `admin`. */
  identity: string
  /** A request the suite received (a hook delivery), not one it sent: never re-sent by --replay. */
  incoming?: boolean
  /** Text messages of a WebSocket, in arrival order. */
  messages?: RecordedMessage[]
}

export class Recorder {
  readonly exchanges: Exchange[] = []
  /** Values never to be written: keys, tokens, hook secrets (the options' and any met in a body's `secret` member). */
  readonly secrets = new Set<string>()
  /** The check running now (the runner sets it). */
  check = 'discovery'
  private readonly pending = new Set<Promise<void>>()

  constructor(private readonly identify: (headers: Headers) => string) {}

  /** `fetchImpl` recording every exchange it makes. */
  wrap(fetchImpl: typeof fetch): typeof fetch {
    return async (input, init) => {
      const headers = new Headers(init?.headers)
      const body = typeof init?.body === 'string' ? init.body : undefined
      if (body !== undefined) this.learn(body)
      const started = performance.now()
      const exchange: Exchange = {
        startedAt: new Date().toISOString(),
        timeMs: 0,
        request: { method: init?.method ?? 'GET', url: String(input instanceof Request ? input.url : input), headers: [...headers], ...(body === undefined ? {} : { body }) },
        checks: [this.check],
        identity: this.identify(headers),
      }
      this.exchanges.push(exchange)
      let response: Response
      try {
        response = await fetchImpl(input, init)
      } catch (error) {
        exchange.timeMs = performance.now() - started
        exchange.error = (error as Error)?.message ?? String(error)
        throw error
      }
      const recorded = { status: response.status, statusText: response.statusText, headers: [...response.headers], body: '', truncated: false }
      exchange.response = recorded
      exchange.timeMs = performance.now() - started
      if (response.body !== null) {
        const reading = readCapped(response.clone()).then(({ text, truncated }) => {
          recorded.body = text
          recorded.truncated = truncated
          exchange.timeMs = performance.now() - started
          this.learn(text)
        })
        this.pending.add(reading)
        void reading.finally(() => this.pending.delete(reading))
      }
      return response
    }
  }

  /** Marks the answers to `method url` (sent with `apiKey`) as used by the running check too (a shared answer). */
  use(method: string, url: string, apiKey: string | null): void {
    for (let i = this.exchanges.length - 1; i >= 0; i--) {
      const e = this.exchanges[i]!
      if (e.incoming || e.request.method !== method || e.request.url !== url) continue
      if ((e.request.headers.find(([name]) => name === 'api-key')?.[1] ?? null) !== (apiKey === null ? null : apiKey)) continue
      this.tag(e)
      return
    }
  }

  /** Marks exchanges `from` to `to` (indexes) as used by the running check too (a shared probe). */
  useRange(from: number, to: number, check = this.check): void {
    for (let i = from; i < to && i < this.exchanges.length; i++) this.tag(this.exchanges[i]!, check)
  }

  /** Records a request the suite received (a hook delivery) and what it answered. */
  incoming(method: string, url: string, headers: Record<string, string | undefined>, body: string, status: number): void {
    const list = Object.entries(headers).filter((h): h is [string, string] => h[1] !== undefined)
    this.exchanges.push({
      startedAt: new Date().toISOString(),
      timeMs: 0,
      request: { method, url, headers: list, body },
      response: { status, statusText: '', headers: [], body: '', truncated: false },
      checks: [this.check],
      identity: 'server',
      incoming: true,
    })
  }

  /** Records a WebSocket's opening request; the caller adds its answer and messages to the exchange returned. */
  socket(url: string, headers: Record<string, string>): Exchange {
    const exchange: Exchange = {
      startedAt: new Date().toISOString(),
      timeMs: 0,
      request: { method: 'GET', url, headers: Object.entries(headers) },
      checks: [this.check],
      identity: this.identify(new Headers(headers)),
      messages: [],
    }
    this.exchanges.push(exchange)
    return exchange
  }

  /** Resolves once every body being read has been (at most `ms`). */
  async settled(ms = 5_000): Promise<void> {
    let timer: NodeJS.Timeout | undefined
    await Promise.race([Promise.allSettled([...this.pending]), new Promise((resolve) => (timer = setTimeout(resolve, ms)))])
    clearTimeout(timer)
  }

  private tag(e: Exchange, check = this.check): void {
    if (!e.checks.includes(check)) e.checks.push(check)
  }

  /** Hook secrets a body holds (`"secret": "…"` at any depth) join the redacted values. */
  private learn(text: string): void {
    if (!text.includes('"secret"')) return
    for (const m of text.matchAll(/"secret"\s*:\s*"((?:[^"\\]|\\.)+)"/g)) this.secrets.add(m[1]!)
  }
}

/** The text of a body, at most BODY_CAP characters; then the rest is cancelled. */
async function readCapped(response: Response): Promise<{ text: string; truncated: boolean }> {
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  let text = ''
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return { text: text + decoder.decode(), truncated: false }
      text += decoder.decode(value, { stream: true })
      if (text.length >= BODY_CAP) {
        await reader.cancel().catch(() => undefined)
        return { text: text.slice(0, BODY_CAP), truncated: true }
      }
    }
  } catch {
    // The connection was closed (the suite stopped reading an export): keep what came.
    return { text, truncated: true }
  }
}
