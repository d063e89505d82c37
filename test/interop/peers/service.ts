/**
 * `l9kit serve` (the built binary) for the peers' tests, on the memory store or on PostgreSQL,
 * with their keys and events (the planted fault in front of it: fault.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll } from 'vitest'
import { DATABASE_URL, dropSchemasAfterAll, freshSchema } from '../../service/postgres/database.js'
import { BUILT_CLI } from '../../support/built-cli.js'

export const KEYS = { pro: 'peers-pro-key-000001', registered: 'peers-reg-key-000001', admin: 'peers-admin-token-0001' }

const schemas: string[] = []
dropSchemasAfterAll(schemas)

/** The stores to run on: memory, and PostgreSQL when the suite has one (always under CI). */
export function stores(): [string, () => string[]][] {
  const out: [string, () => string[]][] = [['memory', () => []]]
  if (DATABASE_URL !== '') {
    out.push([
      'PostgreSQL',
      () => {
        const schema = freshSchema()
        schemas.push(schema)
        return ['--store', DATABASE_URL, '--schema', schema]
      },
    ])
  } else if (process.env.CI === 'true') throw new Error('CI=true needs PostgreSQL: the peers run on both stores')
  return out
}

export interface Service {
  url: string
  stop(): void
}

const children = new Set<ChildProcess>()
afterAll(() => {
  for (const child of children) child.kill('SIGKILL')
})

/**
 * Starts `l9kit serve` with pages of `pageSize`, our keys (pro and anonymous unlimited, the
 * registered key at 4 requests a second without burst: the Go tool meets 429s), plugin
 * descriptions, and `events` (JSON Lines) loaded.
 */
export async function serve(dir: string, store: string[], events: string, pageSize: number): Promise<Service> {
  const config = join(dir, `config-${children.size}.json`)
  writeFileSync(
    config,
    JSON.stringify({
      keys: [
        { name: 'pro', key: KEYS.pro, plan: 'pro' },
        { name: 'reg', key: KEYS.registered, plan: 'registered' },
      ],
      admin_token: KEYS.admin,
      search_page_size: pageSize,
      plans: { anonymous: { rate: null }, registered: { rate: 4, burst: 1 }, pro: { rate: null } },
      plugins: { GitConfigHttpPlugin: 'Git configuration files served over HTTP.' },
    }),
  )
  const file = join(dir, `events-${children.size}.jsonl`)
  writeFileSync(file, events)
  const child = spawn(process.execPath, [BUILT_CLI, 'serve', '--port', '0', '--config', config, '--load', file, ...store], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, L9KIT_DATABASE_URL: '' } })
  children.add(child)
  let text = ''
  child.stdout!.on('data', (c: Buffer) => (text += c.toString()))
  child.stderr!.on('data', (c: Buffer) => (text += c.toString()))
  const end = Date.now() + 90_000
  let url: string | undefined
  while (url === undefined && Date.now() < end && child.exitCode === null) {
    url = /^listening on (http:\/\/\S+)/m.exec(text)?.[1]
    if (url === undefined) await new Promise((r) => setTimeout(r, 25))
  }
  if (url === undefined) throw new Error(`serve did not start:\n${text}`)
  return { url, stop: () => child.kill('SIGTERM') }
}

/** POSTs JSON Lines to /admin/events, or DELETEs by tag; the JSON answer. */
export async function admin(url: string, method: 'POST' | 'DELETE', body: string | { tag: string }): Promise<any> {
  const target = typeof body === 'string' ? `${url}/admin/events` : `${url}/admin/events?tag=${encodeURIComponent(body.tag)}`
  const res = await fetch(target, { method, headers: { authorization: `Bearer ${KEYS.admin}` }, body: typeof body === 'string' ? body : undefined })
  return { status: res.status, body: await res.json() }
}
