import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CONVERTERS, converterNamed, DETECT_BYTES, detectFormat, peekHead, undetectedMessage } from '../../src/convert/index.js'
import { detectInput } from '../../src/convert/detect-input.js'
import { TOOLS_CORPUS } from '../support/golden.js'

/** corpus/tools/<dir> → the converter whose inputs it holds. */
const DIRS: Record<string, string> = {
  httpx: 'httpx',
  nuclei: 'nuclei',
  naabu: 'naabu',
  zgrab2: 'zgrab2',
  hostport: 'hostport',
  url: 'url',
  dnsx: 'dnsx',
  'nmap-xml': 'nmap-xml',
  'nmap-grep': 'nmap-grep',
  'masscan-json': 'masscan-json',
  'masscan-list': 'masscan-list',
  'masscan-ndjson': 'masscan-ndjson',
  'masscan-console': 'masscan-console',
  subfinder: 'subfinder',
  tlsx: 'tlsx',
  katana: 'katana',
  zmap: 'zmap',
  rustscan: 'rustscan',
  sx: 'sx',
  shodan: 'shodan',
  censys: 'censys',
}

const inputs = Object.entries(DIRS).flatMap(([dir, name]) => {
  const root = join(TOOLS_CORPUS, dir)
  let files: string[] = []
  try {
    files = readdirSync(root).filter((f) => !f.endsWith('.expected.jsonl') && !f.endsWith('.problems.txt') && statSync(join(root, f)).isFile())
  } catch {
    return []
  }
  return files.map((f) => ({ file: `${dir}/${f}`, path: join(root, f), name }))
})

describe('registry', () => {
  it('names every converter once, nmap and masscan included', () => {
    const names = CONVERTERS.map((c) => c.name)
    expect(new Set(names).size).toBe(names.length)
    for (const name of ['l9', 'httpx', 'nuclei', 'naabu', 'zgrab2', 'hostport', 'url', 'dnsx', 'nmap-xml', 'nmap-grep', 'masscan-json', 'masscan-list', 'masscan-ndjson', 'masscan-console', 'subfinder', 'tlsx', 'katana', 'zmap', 'rustscan', 'sx']) {
      expect(converterNamed(name)?.name).toBe(name)
    }
  })

  describe('auto detection of every corpus input: from its first 4 KiB, or by reading on to a record a format claims', () => {
    for (const input of inputs) {
      it(input.file, async () => {
        const bytes = readFileSync(input.path)
        const fromHead = detectFormat(bytes.subarray(0, DETECT_BYTES).toString('utf8'))?.name
        if (fromHead === input.name) return
        // Its identifying members lie past the head: nothing claims the head, and --from auto reads on (detect-input.ts).
        expect(fromHead).toBeUndefined()
        const { guess } = await detectInput((async function* () { yield bytes })(), 64 << 20)
        expect(guess?.converter.name).toBe(input.name)
      })
    }
  })

  it('detects event documents as l9', () => {
    expect(detectFormat('{"event_type":"service","event_source":"x","ip":"192.0.2.1"}\n')?.name).toBe('l9')
  })

  it('detects nothing in unrelated text, and says what to do', () => {
    expect(detectFormat('hello world\nthis is prose\n')).toBeUndefined()
    expect(detectFormat('{"some":"json"}\n')).toBeUndefined()
    expect(undetectedMessage('convert: in.txt', 'hello world\n')).toMatch(/cannot tell the input format .* name it with --from \(l9, .*hostport\)/)
  })

  it('peekHead gives back the whole input after looking at its head', async () => {
    async function* parts() {
      for (let i = 0; i < 10; i++) yield Buffer.from(`${'x'.repeat(999)}\n`)
    }
    const { head, stream } = await peekHead(parts())
    expect(head.length).toBe(DETECT_BYTES)
    let total = 0
    for await (const chunk of stream) total += chunk.length
    expect(total).toBe(10_000)
  })
})
