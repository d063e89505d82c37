/**
 * The Rust crate schema/types/rust, built offline by Debian's cargo and rustc (/usr/bin, not a
 * rustup toolchain) against Debian's crate sources in /usr/share/cargo/registry, in the project
 * docs/languages.md's Rust steps make (followed in a new folder, follow-doc.ts; this test adds
 * its own program as a second binary before the doc's build step, so one build serves both):
 * the doc's program gives the same values back; every
 * corpus/valid document and the generated canonical events decode and come back as the same
 * JSON value; and the regex crate gives ECMA-262's verdict on every schema pattern and corpus
 * string (its `$` is the end of the text, so even without the guard).
 */
import { appendFileSync, chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, expect, it } from 'vitest'
import { fileTempDir } from '../support/temp.js'
import { followSection } from './follow-doc.js'
import {
  canonicalLines,
  CONFORM_REPORT,
  ERROR_BODY,
  engineMatrix,
  LANGUAGES,
  needs,
  ROOT,
  roundTripper,
  sameValueTests,
  validDocuments,
  works,
} from './support.js'

const CARGO = '/usr/bin/cargo'
const RUSTC = '/usr/bin/rustc'
const REGISTRY = '/usr/share/cargo/registry'
const CRATES = ['serde-1', 'serde_derive-1', 'serde_json-1', 'regex-1']
const registryHas = (prefix: string) => existsSync(REGISTRY) && readdirSync(REGISTRY).some((name) => name.startsWith(prefix.replace(/-1$/, '-1.')))
const available = works(CARGO, ['--version']) && works(RUSTC, ['--version']) && CRATES.every(registryHas)
const MISSING = `Debian's cargo and rustc with librust-serde-dev, librust-serde-derive-dev, librust-serde-json-dev and librust-regex-dev (${REGISTRY})`

needs('Rust types (schema/types/rust)', available, MISSING, () => {
  const work = fileTempDir('l9kit-rust-types-')
  let binary = ''
  let docOutput = ''
  let canonical: string[] = []
  beforeAll(async () => {
    canonical = await canonicalLines(validDocuments().map((d) => d.doc), work)
    // `cargo` as the doc says it: Debian's, with its rustc (a rustup cargo may come first on PATH).
    const bin = join(work, 'bin')
    mkdirSync(bin)
    writeFileSync(join(bin, 'cargo'), `#!/bin/sh\nRUSTC=${RUSTC} exec ${CARGO} "$@"\n`)
    chmodSync(join(bin, 'cargo'), 0o755)
    // No debug info and no incremental cache: the build is thrown away after the test.
    const env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, CARGO_HOME: join(work, 'cargo-home'), CARGO_PROFILE_DEV_DEBUG: '0', CARGO_INCREMENTAL: '0', L9KIT: ROOT }
    const folder = await followSection('Rust', {
      start: work,
      env,
      timeout: 900_000,
      // Before the doc's build: this test's program beside the doc's, and the regex crate it uses.
      beforeLast: (dir) => {
        writeFileSync(join(dir, 'events.jsonl'), canonical.join('\n') + '\n')
        mkdirSync(join(dir, 'src', 'bin'), { recursive: true })
        writeFileSync(join(dir, 'src', 'bin', 'roundtrip.rs'), readFileSync(join(LANGUAGES, 'rust', 'main.rs')))
        appendFileSync(join(dir, 'Cargo.toml'), 'regex = "1"\n')
      },
    })
    binary = join(folder, 'target', 'debug', 'roundtrip')
    docOutput = readFileSync(join(folder, 'again.jsonl'), 'utf8')
  }, 900_000)

  it('docs/languages.md, followed step by step in a new folder, builds a program that gives the same values', () => {
    expect(docOutput.trim().split('\n').map((l) => JSON.parse(l))).toEqual(canonical.map((l) => JSON.parse(l)))
  })

  const roundTrip = roundTripper(() => binary)

  sameValueTests(roundTrip, work)

  it('an absent software.fingerprint stays absent (never written null); a lookup result and subdomains come back', async () => {
    const doc = validDocuments().find((d) => d.name === 'service-software-fingerprint-omitted.json')!.doc as any
    const [back] = (await roundTrip('event', [JSON.stringify(doc)])) as any[]
    expect(back.service.software).not.toHaveProperty('fingerprint')
    const lookup = { Services: null, Leaks: [doc] }
    const subdomains = [{ subdomain: 'www.example.com', distinct_ips: 4294967296, last_seen: '2026-01-02T03:04:05.123Z' }]
    expect(await roundTrip('lookup', [JSON.stringify(lookup)])).toEqual([lookup])
    expect(await roundTrip('subdomains', [JSON.stringify(subdomains)])).toEqual([subdomains])
  })

  it('keeps members the schema does not list; an error body and a conformance report come back', async () => {
    const doc = validDocuments()[0]!.doc as any
    const extended = { ...doc, vendor_extension: { a: [1, null] }, http: { ...doc.http, x_http: true } }
    expect(await roundTrip('event', [JSON.stringify(extended)])).toEqual([extended])
    expect(await roundTrip('error', [JSON.stringify(ERROR_BODY)])).toEqual([ERROR_BODY])
    expect(await roundTrip('report', [JSON.stringify(CONFORM_REPORT)])).toEqual([CONFORM_REPORT])
  })

  it('refuses an event written as an array, "fingerprint": null, and an integer with a fraction', async () => {
    const doc = validDocuments()[0]!.doc as any
    const withNull = { ...doc, service: { ...doc.service, software: { ...doc.service.software, fingerprint: null } } }
    const out = await roundTrip('event', [JSON.stringify(Object.values(doc)), JSON.stringify(withNull), JSON.stringify(doc).replace(/"status":(\d+)/, '"status":$1.0')])
    expect(out[0]).toMatch(/^error: invalid type: sequence, expected/)
    expect(out[1]).toMatch(/^error: null is not allowed for an optional member/)
    expect(out[2]).toMatch(/^error: invalid type: floating point/)
  })

  it('refuses what the types cannot hold', async () => {
    const doc = validDocuments()[0]!.doc as any
    const bad = [{ ...doc, port: 443 }, { ...doc, service: { ...doc.service, credentials: { ...doc.service.credentials, raw: 'YQ' } } }]
    const out = await roundTrip('event', bad.map((d) => JSON.stringify(d)))
    expect(out[0]).toMatch(/^error: invalid type: integer `443`, expected a string/)
    expect(out[1]).toMatch(/^error: expected padded standard base64 text/)
  })

  it('the regex crate agrees with ECMA-262 on every schema pattern and corpus string', async () => {
    const { rows, ecma } = await engineMatrix(binary, ['patterns'])
    expect(rows).toEqual(ecma)
  })
})
