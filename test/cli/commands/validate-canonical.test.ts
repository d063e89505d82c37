/**
 * validate's short way for canonical lines (src/cli/commands/validate-canonical.ts): whenever
 * it vouches for a line, the long way (JSON.parse + the compiled validator) finds the line
 * valid with nothing to print; and it does vouch for canonical lines whose leak values are
 * listed, so the short way is really taken.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fromLine } from '../../../src/jsonl/index.js'
import { quietCanonical } from '../../../src/cli/commands/validate-canonical.js'
import { type ValidateSettings, validateRecord } from '../../../src/cli/commands/validate-record.js'
import { normalize, serializeEvent } from '../../../src/normalize/index.js'
import { validate } from '../../../src/validate/index.js'
import { lenientText } from '../../normalize/arbitraries.js'

const settings = fc.record({
  profile: fc.constantFrom('strict' as const, 'lenient' as const),
  format: fc.constantFrom('text' as const, 'json' as const),
  showWarnings: fc.boolean(),
  arrays: fc.boolean(),
})
const leakValue = fc.oneof(fc.constantFrom('', 'open', 'explore', 'exfiltrate', 'critical', 'high', 'medium', 'low', 'info', 'High', 'op"en', 'in\\fo', 'x'), fc.string({ maxLength: 6 }))

/** Canonical text of a generated document, with the leak's stage and severity set. */
const canonicalText = fc.tuple(lenientText, leakValue, leakValue).map(([text, stage, severity]) => {
  const r = normalize(JSON.parse(text))
  if (!r.ok) throw new Error(`generated document failed: ${JSON.stringify(r.errors)}`)
  r.event.leak.stage = stage
  r.event.leak.severity = severity
  return serializeEvent(r.event)
})

// The event's judge as the library's validate() gives it (judgeFor loads the same validators).
const judgeOf = (s: ValidateSettings) => (value: unknown) => validate(value, { profile: s.profile })
const longWay = (text: string, s: ValidateSettings) => validateRecord(fromLine({ line: 7, offset: 0, text }), 'f.jsonl', s, judgeOf(s))

describe('validate, canonical lines', () => {
  it('vouches only for lines the full validator finds valid with nothing to print', () => {
    fc.assert(
      fc.property(fc.oneof(canonicalText, lenientText), settings, (text, s) => {
        if (quietCanonical(text, s)) expect(longWay(text, s)).toEqual({ ok: true, lines: [] })
      }),
      { numRuns: 3000 },
    )
  })

  it('vouches for canonical lines without unknown members whose leak values are listed or empty', () => {
    const stages = fc.constantFrom('', 'open', 'exfiltrate')
    const severities = fc.constantFrom('', 'high', 'info')
    fc.assert(
      fc.property(fc.tuple(lenientText, stages, severities), settings, ([text, stage, severity], s) => {
        const r = normalize(JSON.parse(text))
        if (!r.ok || r.warnings.length > 0) return // unknown members are kept: not canonical
        r.event.leak.stage = stage
        r.event.leak.severity = severity
        expect(quietCanonical(serializeEvent(r.event), s)).toBe(true)
      }),
      { numRuns: 500 },
    )
  })

  it('leaves a listed-value warning to the long way', () => {
    const r = normalize(JSON.parse('{"event_type":"leak","ip":"192.0.2.1","leak":{"stage":"open","severity":"urgent"}}'))
    if (!r.ok) throw new Error('fixture')
    const text = serializeEvent(r.event)
    const strict: ValidateSettings = { profile: 'strict', format: 'text', showWarnings: true, arrays: false }
    expect(quietCanonical(text, strict)).toBe(false)
    expect(longWay(text, strict).lines).toEqual([expect.stringContaining("severity 'urgent' is not one of")])
    expect(quietCanonical(text, { ...strict, showWarnings: false })).toBe(true)
  })
})
