/** `--from auto` picks the right converter for every nmap and masscan corpus input. */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DETECT_BYTES, detectFormat } from '../../../src/convert/registry.js'
import { TOOLS_CORPUS } from '../../support/golden.js'

const EXPECTED: Record<string, string> = {
  'nmap-xml': 'nmap-xml',
  'nmap-grep': 'nmap-grep',
  'masscan-json': 'masscan-json',
  'masscan-ndjson': 'masscan-ndjson',
  'masscan-list': 'masscan-list',
  'masscan-console': 'masscan-console',
}

describe('auto detection of the nmap and masscan corpus', () => {
  for (const [dir, name] of Object.entries(EXPECTED)) {
    const inputs = readdirSync(join(TOOLS_CORPUS, dir)).filter((f) => !f.endsWith('.expected.jsonl') && !f.endsWith('.problems.txt'))
    it.each(inputs)(`${dir}/%s`, (file) => {
      const head = readFileSync(join(TOOLS_CORPUS, dir, file)).subarray(0, DETECT_BYTES).toString('utf8')
      expect(detectFormat(head)?.name).toBe(name)
    })
  }
})
