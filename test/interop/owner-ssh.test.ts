/**
 * docs/format.md, "`ssh` on every event": the format owner's real Python model (the peer
 * snapshot ../shared/peers/l9format-python, run as it is) reads l9kit's events with an
 * `L9SSHEvent` on every one, HTTP and FTP ones included, so `event.ssh is not None` says
 * nothing; the doc's `has_ssh` (its Python block, run here as written) tells the events that
 * carry SSH data from the others.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { expect, it } from 'vitest'
import { blocksOf } from '../docs/markdown.js'
import { ROOT } from '../corpus/files.js'
import { needs, run, works } from '../languages/support.js'
import { testTempDir } from '../support/temp.js'
import { PEERS } from './peers/peers.js'

const PYTHON = '/usr/bin/python3'

const model = (() => {
  const pkg = PEERS && join(PEERS, 'l9format-python', 'l9format')
  return pkg && existsSync(join(pkg, 'l9format.py')) ? resolve(pkg) : undefined
})()

/** The doc's Python block that this file runs. */
function hasSshBlock(): string {
  const blocks = blocksOf(join(ROOT, 'docs', 'format.md')).filter((b) => b.marker?.kind === 'run-by' && b.marker.path === 'test/interop/owner-ssh.test.ts')
  expect(blocks).toHaveLength(1)
  return blocks[0]!.text
}

/** Events of the converters' golden files: ZGrab2's (SSH, FTP, SMTP, …) and httpx's. */
function events(): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = []
  for (const file of ['zgrab2/protocols.expected.jsonl', 'httpx/typical.expected.jsonl', 'shodan/protocols.expected.jsonl']) {
    for (const line of readFileSync(join(ROOT, 'corpus', 'tools', file), 'utf8').split('\n')) if (line.trim() !== '') out.push(JSON.parse(line))
  }
  return out
}

needs('the owner’s Python model and the events l9kit writes', model !== undefined && works(PYTHON, ['-c', 'import dataclasses']), `the peer l9format-python (../shared/peers) and ${PYTHON}`, () => {
  it('reads an ssh on every event; has_ssh tells those with SSH data', async () => {
    const dir = testTempDir('l9kit-owner-ssh-')
    // The package as the peers' README says to run it: on PYTHONPATH, with its metadata beside it.
    const site = join(dir, 'site')
    mkdirSync(join(site, 'l9format-2.0.1.dist-info'), { recursive: true })
    symlinkSync(model!, join(site, 'l9format'))
    writeFileSync(join(site, 'l9format-2.0.1.dist-info', 'METADATA'), 'Metadata-Version: 2.1\nName: l9format\nVersion: 2.0.1\n')
    const script = `${hasSshBlock()}
import json, sys
from l9format import L9Event
for line in sys.stdin:
    event = L9Event.from_dict(json.loads(line))
    print(json.dumps([event.protocol, event.ssh is not None, has_ssh(event)]))
`
    writeFileSync(join(dir, 'check.py'), script)
    const docs = events()
    const result = await run(PYTHON, [join(dir, 'check.py')], { input: `${docs.map((d) => JSON.stringify(d)).join('\n')}\n`, env: { ...process.env, PYTHONPATH: site } })
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const rows = result.stdout.trim().split('\n').map((l) => JSON.parse(l) as [string, boolean, boolean])
    expect(rows).toHaveLength(docs.length)
    // Every event l9kit writes has an `ssh` (as the Go tools write it): not a test for SSH data.
    expect(rows.every(([, present]) => present)).toBe(true)
    const ssh = rows.filter(([protocol]) => protocol === 'ssh')
    const others = rows.filter(([protocol]) => protocol === 'http' || protocol === 'https' || protocol === 'ftp' || protocol === 'smtp')
    expect(ssh.length).toBeGreaterThan(0)
    expect(others.length).toBeGreaterThan(0)
    expect(ssh.every(([, , has]) => has)).toBe(true)
    expect(others.every(([, , has]) => !has)).toBe(true)
  })
})
