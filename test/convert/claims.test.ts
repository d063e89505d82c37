/**
 * No format claims another format's record (Converter.records.claims, convert/dispatch.ts):
 * every record of the golden corpus's JSON inputs is claimed by its own format or by none
 * (a damaged record), and every event document the converters write is claimed by l9 only.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CONVERTERS } from '../../src/convert/index.js'
import { readRecords } from '../../src/jsonl/index.js'
import { TOOLS_CORPUS } from '../support/golden.js'
import { chunks } from '../support/streams.js'

/** corpus/tools/<dir> → the format whose records it holds. */
const JSON_DIRS: Record<string, string> = {
  censys: 'censys',
  dnsx: 'dnsx',
  httpx: 'httpx',
  katana: 'katana',
  'masscan-ndjson': 'masscan-ndjson',
  naabu: 'naabu',
  nuclei: 'nuclei',
  shodan: 'shodan',
  subfinder: 'subfinder',
  sx: 'sx',
  tlsx: 'tlsx',
  zgrab2: 'zgrab2',
  zmap: 'zmap',
}

async function objects(path: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = []
  for await (const r of readRecords(chunks(readFileSync(path)))) {
    if ('value' in r && typeof r.value === 'object' && r.value !== null && !Array.isArray(r.value)) out.push(r.value as Record<string, unknown>)
  }
  return out
}

const claimants = (record: Record<string, unknown>) => CONVERTERS.filter((c) => c.records?.claims(record)).map((c) => c.name)

describe('claims', () => {
  for (const [dir, own] of Object.entries(JSON_DIRS)) {
    const files = readdirSync(join(TOOLS_CORPUS, dir)).filter((f) => !f.endsWith('.problems.txt'))
    for (const file of files.filter((f) => !f.includes('.expected.'))) {
      // A damaged input may hold another tool's record on purpose (one format claims it then).
      const damaged = file.startsWith('damaged')
      it(`${dir}/${file}: each record is claimed by ${damaged ? 'one format' : own} or by none`, async () => {
        const all = await objects(join(TOOLS_CORPUS, dir, file))
        let claimed = 0
        for (const record of all) {
          const who = claimants(record)
          expect(who.length <= 1 && (damaged || who.length === 0 || who[0] === own), `${JSON.stringify(record).slice(0, 120)} claimed by ${who.join(', ')}`).toBe(true)
          if (who[0] === own) claimed++
        }
        if (!damaged && all.length > 0) expect(claimed).toBeGreaterThan(0)
      })
    }
    for (const file of files.filter((f) => f.includes('.expected.'))) {
      it(`${dir}/${file}: its event documents are claimed by l9 only`, async () => {
        for (const record of await objects(join(TOOLS_CORPUS, dir, file))) expect(claimants(record)).toEqual(['l9'])
      })
    }
  }
})
