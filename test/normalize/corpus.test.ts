import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { normalize, normalizeText, serializeEvent } from '../../src/normalize/index.js'
import { validate } from '../../src/validate/index.js'

const dir = join(import.meta.dirname, '../../corpus/valid')
const files = readdirSync(dir).filter((f) => f.endsWith('.json'))

/** Strict-valid forms the normaliser rewrites on purpose (docs/normalize.md). */
function notCanonicalOnPurpose(doc: Record<string, any>): boolean {
  const software = doc.service?.software ?? {}
  const dupes = (list: unknown) => Array.isArray(list) && new Set(list).size !== list.length
  return (
    doc.leak?.dataset?.ransom_notes?.length === 0 ||
    software.modules?.length === 0 ||
    doc.service?.credentials?.raw === '' ||
    !('fingerprint' in software) ||
    dupes(doc.transport) ||
    dupes(doc.tags)
  )
}

/**
 * The compact text of `doc` with its header names in byte order of their UTF-8 bytes (the
 * canonical order), written here on its own: Buffer.compare on each name's UTF-8 bytes.
 */
function withSortedHeader(doc: Record<string, any>): string {
  const header = doc.http?.header
  const compact = JSON.stringify(doc)
  if (header === null || typeof header !== 'object') return compact
  const names = Object.keys(header).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
  const sorted = `{${names.map((n) => `${JSON.stringify(n)}:${JSON.stringify(header[n])}`).join(',')}}`
  return compact.replace(`"header":${JSON.stringify(header)}`, () => `"header":${sorted}`)
}

describe('normalize over corpus/valid', () => {
  it.each(files)('%s: strict output, a fixed point, byte-identical when already canonical', (file) => {
    const doc = JSON.parse(readFileSync(join(dir, file), 'utf8'))
    const r = normalize(doc)
    if (!r.ok) throw new Error(JSON.stringify(r.errors))
    const out = serializeEvent(r.event)
    expect(validate(JSON.parse(out)).errors).toEqual([])
    expect(normalizeText(out)).toEqual({ ok: true, text: out, changed: false, warnings: [] })
    // Header names in tool order are rewritten in byte order; nothing else changes.
    if (!notCanonicalOnPurpose(doc)) expect(out).toBe(withSortedHeader(doc))
  })
})
