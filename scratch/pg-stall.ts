import { measureIngestStall, printStall } from '../bench/support/ingest-stall.js'
import { PostgresStore } from '../src/service/store/postgres/index.js'
import { connect } from '../src/service/store/postgres/index.js'
const url = process.env.L9KIT_TEST_DATABASE_URL!
const schema = `bench_stall_${process.pid}`
const store = await PostgresStore.open(url, { schema, max: 8 })
try { printStall('PostgreSQL store', await measureIngestStall(20_000, store)) } finally {
  await store.close()
  const sql = connect(url, { max: 1 }); await sql`DROP SCHEMA IF EXISTS ${sql(schema)} CASCADE`; await sql.end({ timeout: 5 })
}
