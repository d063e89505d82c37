import { describe, expect, it } from 'vitest'
import { runCli } from '../support/streams.js'

const doc = '{"event_source":"testing","summary":"test\\ntest\\n","port":"80"}'

describe('l9kit fingerprint', () => {
  it('prints one fingerprint per document, v1 by default', async () => {
    const r = await runCli(['fingerprint'], `${doc}\n${doc}\n`)
    expect(r).toMatchObject({ code: 0, stderr: '' })
    expect(r.stdout).toBe('5a2c67df7b758a1eb5b5f87eed5caddeed5caddeed5caddeed5caddefe9efc5e\n'.repeat(2))
  })

  it('uses version 2 with --algo v2, and treats absent members as empty', async () => {
    const r = await runCli(['fingerprint', '--algo', 'v2'], `${doc}\n{}\n`)
    expect(r.stdout).toBe('5a2c67df7b758a1eb5b5f87eed5caddeed5caddeed5caddeed5caddeed5cadde\n' + '811c9dc5'.repeat(8) + '\n')
  })

  it('reports documents it cannot fingerprint and exits 1', async () => {
    const r = await runCli(['fingerprint'], `${doc}\n{"summary":3}\n[1]\nnope\n`)
    expect(r.code).toBe(1)
    expect(r.stdout.trim().split('\n')).toHaveLength(1)
    expect(r.stderr.split('\n')).toEqual([
      '<stdin>:2: /summary: expected string, found integer 3',
      '<stdin>:3: (document): the document must be a JSON object',
      expect.stringMatching(/^<stdin>:4: \(document\): not valid JSON/),
      '',
    ])
  })

  it('exits 2 on a bad option, and describes every option in --help', async () => {
    const bad = await runCli(['fingerprint', '--algo', 'v3'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain("--algo must be one of v1, v2 (got 'v3')")
    const help = await runCli(['fingerprint', '--help'])
    for (const option of ['--algo', 'v1|v2', '--max-line-bytes', 'Exit status']) expect(help.stdout).toContain(option)
  })
})
