/**
 * `npm run schema:release`: records the current schema documents as released, by copying
 * schema/*.schema.json and schema/VERSION into schema/released/. Run it when publishing a
 * version; the breaking-change guard (test/schema/compat.test.ts) compares against these copies.
 */
import { copyFile, mkdir, readdir, rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const schemaDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'schema')
const releasedDir = join(schemaDir, 'released')

await rm(releasedDir, { recursive: true, force: true })
await mkdir(releasedDir, { recursive: true })
const files = (await readdir(schemaDir)).filter((n) => n.endsWith('.schema.json') || n === 'VERSION').sort()
for (const file of files) await copyFile(join(schemaDir, file), join(releasedDir, file))
console.log(`released ${files.length} files into schema/released/`)
