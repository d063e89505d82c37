/**
 * The vocabulary's spellings (src/normalize/vocabulary.ts): each is a fixed point (spelling a
 * canonical value again changes nothing), and normalize's output of a document holding any mix
 * of known and unknown spellings is canonical, on the parsed and the text path alike.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isCanonicalText, normalize, normalizeText, resolveOptions, serializeEvent } from '../../src/normalize/index.js'
import { MYSQL_STATUS_FLAGS, mysqlStatus, rfbVersion, sshKeyType, TELNET_OPTIONS, telnetOptions, VNC_SECURITY_TYPES, vncSecurityTypeText } from '../../src/normalize/vocabulary.js'

const KEEP = resolveOptions({ fingerprint: 'keep' })

/** Known spellings in any case and separator, numbers, and text no table knows. */
const word = fc.oneof(
  fc.constantFrom(...MYSQL_STATUS_FLAGS.map(([, n]) => n), 'Autocommit', 'InTransaction', 'LastRowSebd', '2', '0x0010', '70000'),
  fc.constantFrom(...TELNET_OPTIONS.values(), 'Suppress Go Ahead', 'suppress_go_ahead', 'Echo', '24', 'OPTION-99', 'Window Size'),
  fc.constantFrom(...VNC_SECURITY_TYPES.values(), 'None (1)', 'Mac OS X security type (35)', 'Apple (31)', '2'),
  fc.constantFrom('RFB 003.008', '003.003', '3.8', 'ssh-rsa', 'RSA', 'ECDSA', 'Ed25519', 'SSH-ED25519'),
  fc.string({ maxLength: 12 }),
)
const text = fc.array(word, { maxLength: 4 }).chain((ws) => fc.constantFrom(', ', ',', ' ', ' | ').map((sep) => ws.join(sep)))

describe('vocabulary', () => {
  it('every spelling function is a fixed point on its own output', () => {
    fc.assert(
      fc.property(text, fc.array(word, { maxLength: 5 }), (t, list) => {
        for (const spell of [(v: string) => mysqlStatus(v) ?? v, rfbVersion, (v: string) => sshKeyType(v), vncSecurityTypeText]) {
          const once = spell(t)
          expect(spell(once), t).toBe(once)
        }
        const options = telnetOptions(list)
        expect(telnetOptions(options)).toEqual(options)
        expect(new Set(options).size).toBe(options.length)
      }),
      { numRuns: 2000 },
    )
  })

  it("normalize's output of any mix of spellings is canonical, parsed or as text", () => {
    fc.assert(
      fc.property(text, fc.array(word, { maxLength: 4 }), fc.array(word, { maxLength: 4 }), text, text, (status, options, types, version, keyType) => {
        const doc = { event_type: 'service', ssh: { key_type: keyType }, vnc: { version, security_types: types }, telnet: { options }, mysql: { server_status: status } }
        const result = normalize(doc, { fingerprint: 'keep' })
        expect(result.ok).toBe(true)
        if (!result.ok) return
        const written = serializeEvent(result.event)
        expect(isCanonicalText(written, KEEP), written.slice(-300)).toBe(true)
        expect(normalizeText(written)).toMatchObject({ ok: true, changed: false })
        // The text path (normalize's CLI) gives the bytes the parsed path does.
        const full = normalize(doc)
        if (full.ok) expect(normalizeText(JSON.stringify(doc))).toMatchObject({ ok: true, text: serializeEvent(full.event) })
      }),
      { numRuns: 500 },
    )
  })
})
