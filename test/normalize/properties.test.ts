import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { eventSerializer, isCanonical, normalize, type NormalizeOptions, normalizeText, resolveOptions } from '../../src/normalize/index.js'
import { validate } from '../../src/validate/index.js'
import { lenientText } from './arbitraries.js'

const options = fc.record({
  headerCase: fc.constantFrom('keep' as const, 'lower' as const),
  headerOrder: fc.constantFrom('sorted' as const, 'input' as const),
  escape: fc.constantFrom('plain' as const, 'go' as const),
  fingerprint: fc.constantFrom('keep' as const, 'v1' as const, 'v2' as const, 'missing' as const),
})

function once(text: string, opts: NormalizeOptions): string {
  const r = normalize(JSON.parse(text), opts)
  if (!r.ok) throw new Error(`lenient document failed: ${JSON.stringify(r.errors)}\n${text}`)
  return eventSerializer(opts)(r.event)
}

/**
 * Runs of the idempotence property: sized to finish well inside the test's bound on a busy
 * two-core machine (10 000 took over two minutes at load 17); fast-check draws new documents
 * on every run, and L9KIT_PROPERTY_RUNS asks for more where there is time.
 */
const RUNS = Number(process.env.L9KIT_PROPERTY_RUNS ?? 1000)

describe('normalize properties', () => {
  it(`is idempotent on ${RUNS} generated lenient documents, and its output always passes strict`, () => {
    fc.assert(
      fc.property(lenientText, options, (text, opts) => {
        expect(validate(JSON.parse(text), { profile: 'lenient' }).errors).toEqual([])
        const first = once(text, opts)
        expect(validate(JSON.parse(first)).errors).toEqual([])
        expect(once(first, opts)).toBe(first)
      }),
      { numRuns: RUNS },
    )
  })

  it('writes an already-canonical document byte-identical (the fast path and the full path agree)', () => {
    fc.assert(
      fc.property(lenientText, options, (text, opts) => {
        const canonical = once(text, opts)
        const r = normalizeText(canonical, opts)
        expect(r).toMatchObject({ ok: true, changed: false })
        expect(r.ok && r.text).toBe(canonical)
        // Without unknown members the cheap canonical check recognises it (no rebuild, no re-serialise).
        if (r.ok && r.warnings.length === 0) expect(isCanonical(JSON.parse(canonical), resolveOptions(opts))).toBe(true)
        // And from the lenient text itself: the same bytes as normalize + serializeEvent.
        const direct = normalizeText(text, opts)
        expect(direct.ok && direct.text).toBe(canonical)
      }),
      { numRuns: 1000 },
    )
  })
})
