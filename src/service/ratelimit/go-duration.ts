/**
 * Go's duration text (`time.Duration.String`), the format of the `x-limited-for` header:
 * `734ms`, `1.2s`, `1m2.5s`, `1h0m0s`. (Parsing it is the client's job: src/client/duration.ts.)
 */

/** Formats a whole number of nanoseconds exactly as Go's `Duration.String` does. */
export function formatGoDuration(nanoseconds: number): string {
  let n = Math.round(nanoseconds)
  if (n === 0) return '0s'
  const sign = n < 0 ? '-' : ''
  n = Math.abs(n)
  if (n < 1e3) return `${sign}${n}ns`
  if (n < 1e6) return `${sign}${fraction(n, 1e3)}µs`
  if (n < 1e9) return `${sign}${fraction(n, 1e6)}ms`
  const totalSeconds = Math.floor(n / 1e9)
  let out = `${totalSeconds % 60}${fractionDigits(n % 1e9, 1e9)}s`
  const totalMinutes = Math.floor(totalSeconds / 60)
  if (totalMinutes > 0) {
    out = `${totalMinutes % 60}m${out}`
    const hours = Math.floor(totalMinutes / 60)
    if (hours > 0) out = `${hours}h${out}`
  }
  return sign + out
}

/** A duration in milliseconds as Go text (the limiter reports whole milliseconds). */
export const formatMillis = (ms: number) => formatGoDuration(ms * 1e6)

/** `value / unit` in decimal with the fraction's trailing zeros removed. */
function fraction(value: number, unit: number): string {
  return `${Math.floor(value / unit)}${fractionDigits(value % unit, unit)}`
}

function fractionDigits(rest: number, unit: number): string {
  if (rest === 0) return ''
  const width = String(unit).length - 1
  return '.' + String(rest).padStart(width, '0').replace(/0+$/, '')
}
