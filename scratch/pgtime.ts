import { PostgresStore } from '../src/service/store/postgres/index.js'
import { parseQuery } from '../src/query/index.js'
import { costlyEvent } from '../test/service/abuse/support.js'
const store = await PostgresStore.open(process.env.L9KIT_TEST_DATABASE_URL!, { schema: 'scratch_pg', searchTimeoutMs: 60_000 })
if (store.size < 2000) await store.ingest(Array.from({ length: 2000 }, (_, i) => costlyEvent(i)))
for (const q of ['+port:22 +summary:~"([^a]{0,50}[^b]{0,50}){10}z"', 'summary:~"(.*a){20}z"', Array.from({ length: 128 }, (_, i) => `w${i}x`).join(' ')]) {
  const t0 = performance.now()
  const r = await store.search(parseQuery(q, { scope: 'service' }), { offset: 0, limit: 20 })
  console.log(q.slice(0, 40), r.length, (performance.now() - t0).toFixed(0), 'ms')
}
await store.close()
