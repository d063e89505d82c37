/**
 * The version of the published schema documents (schema/*.schema.json), kept apart from the
 * package version: it changes only when the documents do. Semantic versioning as OCSF uses it
 * for its schema: a breaking change (a removed member, a narrowed type, a new required member,
 * a tighter pattern or bound) raises the major part; an added optional member or a loosened
 * rule raises the minor part. `npm run generate` writes it to schema/VERSION, and the
 * breaking-change guard (test/schema/compat.test.ts) compares against schema/released/.
 */
export const SCHEMA_VERSION = '2.0.0'
