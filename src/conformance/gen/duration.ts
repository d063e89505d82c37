/** Arbitraries of Go duration strings (`time.ParseDuration` syntax), with the value each one denotes. */
import fc, { type Arbitrary } from 'fast-check'
import { GO_DURATION_UNITS } from '../../client/duration.js'

export { GO_DURATION_UNITS }

export interface GoDurationCase {
  text: string
  /** The value it denotes, truncated toward zero to whole nanoseconds. */
  nanoseconds: bigint
}

const digits = (min: number, max: number) =>
  fc.array(fc.constantFrom(...'0123456789'.split('')), { minLength: min, maxLength: max }).map((d) => d.join(''))

/**
 * One `<number><unit>` segment: integer digits (leading zeros allowed), an optional fraction
 * (`1.5`, `.5`, `5.`), a unit. Integer parts stay small enough that four segments never
 * overflow Go's int64 nanoseconds.
 */
const segment: Arbitrary<GoDurationCase> = fc
  .tuple(digits(0, 5), fc.option(digits(0, 9), { nil: undefined }), fc.constantFrom(...Object.keys(GO_DURATION_UNITS)))
  .filter(([whole, fraction]) => whole.length > 0 || (fraction !== undefined && fraction.length > 0))
  .map(([whole, fraction, unit]) => {
    const scale = GO_DURATION_UNITS[unit]!
    let ns = BigInt(whole || '0') * scale
    if (fraction) ns += (BigInt(fraction) * scale) / 10n ** BigInt(fraction.length)
    return { text: `${whole}${fraction === undefined ? '' : `.${fraction}`}${unit}`, nanoseconds: ns }
  })

/** A Go duration with its value: `[+-]` then one to four segments (`1h2m3.5s`, `344.24ms`, `500µs`), or `0`. */
export function goDurationCase(): Arbitrary<GoDurationCase> {
  const sum = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => ({
    text: parts.map((p) => p.text).join(''),
    nanoseconds: parts.reduce((total, p) => total + p.nanoseconds, 0n),
  }))
  return fc
    .tuple(fc.constantFrom('', '', '', '+', '-'), fc.oneof({ weight: 12, arbitrary: sum }, { weight: 1, arbitrary: fc.constant({ text: '0', nanoseconds: 0n }) }))
    .map(([sign, d]) => ({ text: sign + d.text, nanoseconds: sign === '-' ? -d.nanoseconds : d.nanoseconds }))
}

/** A Go duration string, as servers write `x-limited-for`. */
export function goDuration(): Arbitrary<string> {
  return goDurationCase().map((d) => d.text)
}
