/**
 * Completeness across pages: ingest a known set (COUNT leaks, more than a page of 20, on
 * documentation addresses 198.51.100.0/24, tagged with the run's tag `l9kit-conform:RUN`),
 * search `+tags:"l9kit-conform:RUN"` page after page until an empty page, and expect every
 * one of them exactly once; then delete them (DELETE /admin/events?tag=, noted). Needs
 * --allow-writes and --admin-token.
 */
import { createHash } from 'node:crypto'
import { ClientError, type HookClient } from '../../client/index.js'
import { emptyEvent } from '../../schema/index.js'
import { formatTime } from '../../time/index.js'
import { type Check, fail, pass, skip } from '../check.js'
import type { SuiteContext } from '../context.js'
import { RUN_TAG_PREFIX, runNonce } from './hook-plan.js'
import { problemAt } from './lib.js'
import { searchAbsent, searchPage } from './search-lib.js'

/** Events ingested: a page of 20 and a part. */
const COUNT = 25
/** Pages read at most (a server with pages of one event still ends within them). */
const MAX_PAGES = COUNT + 1

/** Why the check is skipped without `--allow-writes`. */
export const SEARCH_NEEDS_WRITES =
  'needs --allow-writes (with --admin-token): the check writes 25 test events tagged l9kit-conform:RUN (deleted afterwards where the server offers DELETE /admin/events?tag=)'

export const searchComplete: Check = {
  id: 'search-complete',
  description: `After ingesting ${COUNT} tagged leaks, paging a search for their tag until an empty page returns each of them exactly once`,
  spec: 'docs/search.md (pages neither overlap nor skip)',
  needsState: 'ingested events must be found',
  async run(ctx) {
    const { adminToken, allowWrites } = ctx.options
    if (!allowWrites) return skip(SEARCH_NEEDS_WRITES)
    if (adminToken === undefined) return skip('needs --admin-token: the check ingests the events it searches for')
    const absent = await searchAbsent(ctx)
    if (absent !== null) return skip(absent)
    const nonce = runNonce(ctx.seedFor('search-complete'))
    const tag = `${RUN_TAG_PREFIX}${nonce}`
    const admin = ctx.hookClient()
    try {
      await admin.ingest(adminToken, events(nonce, tag))
      const q = `+tags:"${tag}"`
      const got = new Map<string, number>()
      for (let n = 0; ; n++) {
        if (n === MAX_PAGES) return fail({ message: `q=${JSON.stringify(q)}: still not an empty page after ${MAX_PAGES} pages (${COUNT} events were ingested)` })
        const page = await searchPage(ctx, 'leak', q, n)
        if (!page.ok) return fail(problemAt(page.response, `scope leak, q=${JSON.stringify(q)}, page ${n}: ${page.why}`))
        if (page.events.length === 0) break
        for (const e of page.events) {
          const summary = String(e.summary)
          if (got.has(summary)) return fail(problemAt(page.response, `scope leak, q=${JSON.stringify(q)}: the event ${JSON.stringify(summary)} of page ${got.get(summary)} comes back on page ${n}`))
          got.set(summary, n)
        }
      }
      const missing = Array.from({ length: COUNT }, (_, i) => summaryOf(nonce, i)).filter((s) => !got.has(s))
      if (missing.length > 0) return fail({ message: `q=${JSON.stringify(q)}: ${missing.length} of the ${COUNT} ingested events are on no page (first: ${JSON.stringify(missing[0])})` })
      if (got.size !== COUNT) return fail({ message: `q=${JSON.stringify(q)}: ${got.size} events came back, ${COUNT} carry the tag` })
      return pass(`${COUNT} events over ${new Set(got.values()).size} pages`)
    } finally {
      await cleanUp(ctx, admin, adminToken, tag)
    }
  },
}

const summaryOf = (nonce: string, i: number) => `${nonce} search ${i}`

/** COUNT leaks a second apart (newest first by index), one address each, JSON Lines. */
function events(nonce: string, tag: string): string {
  const now = BigInt(Date.now()) * 1_000_000n
  const lines: string[] = []
  for (let i = 0; i < COUNT; i++) {
    const event = emptyEvent()
    event.event_type = 'leak'
    event.event_source = 'l9kit-conform'
    event.ip = `198.51.100.${(i % 250) + 1}`
    event.port = '9200'
    event.summary = summaryOf(nonce, i)
    // Distinct fingerprints of their own: a server keeps one event per fingerprint.
    event.event_fingerprint = createHash('sha256').update(event.summary).digest('hex')
    event.time = formatTime(now - BigInt(i) * 1_000_000_000n)
    event.leak.stage = 'open'
    event.leak.severity = 'info'
    event.tags = [tag]
    lines.push(JSON.stringify(event))
  }
  return `${lines.join('\n')}\n`
}

async function cleanUp(ctx: SuiteContext, admin: HookClient, adminToken: string, tag: string): Promise<void> {
  try {
    const deleted = await admin.deleteTagged(adminToken, tag)
    ctx.notes.push(`search-complete wrote ${COUNT} test events tagged ${tag}; deleted ${deleted} with DELETE /admin/events?tag=${tag}`)
  } catch (error) {
    const why = error instanceof ClientError || error instanceof Error ? error.message : String(error)
    const note = `search-complete: the ${COUNT} test events tagged ${tag} (198.51.100.0/24) stay on the server: ${why}; delete them with the server's own tools`
    ctx.notes.push(note)
    ctx.leftBehind.push(note)
  }
}
