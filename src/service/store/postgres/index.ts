/** The PostgreSQL store: connection, migrations, and the Store over the events table. */
export { connect, type ConnectOptions, isPostgresUrl, shownUrl, storeUrlProblem } from './connect.js'
export { migrate, migrationsDir, migrationStatus, readMigrations, type Migration, type MigrationStatus } from './migrations.js'
export { type IngestHook, PostgresStore, type PostgresStoreOptions } from './store.js'
export { PostgresHookStore, type PostgresHookStoreOptions } from './hook-store.js'
export { queueAdded } from './outbox.js'
