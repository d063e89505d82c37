/**
 * The Rust crate schema/types/rust, built offline by Debian's cargo and rustc (/usr/bin, not a
 * rustup toolchain) against Debian's crate sources in /usr/share/cargo/registry: every
 * corpus/valid document and the generated canonical events decode and come back as the same
 * JSON value; and the regex crate gives ECMA-262's verdict on every schema pattern and corpus
 * string (its `$` is the end of the text, so even without the guard).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, expect, it } from 'vitest'
import { fileTempDir } from '../support/temp.js'
import {
  engineMatrix,
  LANGUAGES,
  needs,
  ROOT,
  roundTripper,
  run,
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

/** A throwaway cargo project: the test program, the generated crate by path, Debian's sources instead of crates.io. */
function project(dir: string): void {
  mkdirSync(join(dir, 'src'), { recursive: true })
  mkdirSync(join(dir, '.cargo'), { recursive: true })
  writeFileSync(join(dir, 'src', 'main.rs'), readFileSync(join(LANGUAGES, 'rust', 'main.rs')))
  writeFileSync(
    join(dir, 'Cargo.toml'),
    [
      '[package]',
      'name = "roundtrip"',
      'version = "0.0.0"',
      'edition = "2021"',
      '',
      '[dependencies]',
      `l9kit-types = { path = ${JSON.stringify(join(ROOT, 'schema', 'types', 'rust'))} }`,
      // Without float_roundtrip serde_json's fast float parser may change a last digit (measured here).
      'serde_json = { version = "1", features = ["float_roundtrip"] }',
      'regex = "1"',
      '',
    ].join('\n'),
  )
  writeFileSync(join(dir, '.cargo', 'config.toml'), `[source.crates-io]\nreplace-with = "debian"\n\n[source.debian]\ndirectory = "${REGISTRY}"\n`)
}

needs('Rust types (schema/types/rust)', available, MISSING, () => {
  const work = fileTempDir('l9kit-rust-types-')
  const binary = join(work, 'target', 'debug', 'roundtrip')
  beforeAll(async () => {
    project(work)
    // Offline, Debian's toolchain named explicitly (a rustup cargo may come first on PATH).
    // No debug info and no incremental cache: the build is thrown away after the test.
    const env = { ...process.env, RUSTC, CARGO_HOME: join(work, 'cargo-home'), CARGO_TARGET_DIR: join(work, 'target'), CARGO_PROFILE_DEV_DEBUG: '0', CARGO_INCREMENTAL: '0' }
    const built = await run(CARGO, ['build', '--offline', '--quiet'], { cwd: work, env, timeout: 900_000 })
    expect(built.stderr).toBe('')
    expect(built.code).toBe(0)
  }, 900_000)

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
