/**
 * Byte-level mutations of valid inputs, for the fuzz suite: bit flips, cuts, truncation,
 * splices, NUL bytes, invalid UTF-8, deep nesting, huge numbers and `__proto__` members.
 * Each mutation says which bytes of the original it touched, so the suite can tell which
 * records it left alone.
 */
import fc from 'fast-check'

export interface Mutated {
  /** What was done, for the counterexample report. */
  label: string
  bytes: Buffer
  /** First and last byte offset of the original that the mutation touched (inclusive; from > to for a pure insertion before `from`). */
  from: number
  to: number
}

const insert = (input: Buffer, at: number, what: Buffer | string, label: string): Mutated => ({
  label,
  bytes: Buffer.concat([input.subarray(0, at), Buffer.from(what as string), input.subarray(at)]),
  from: at,
  to: at,
})

/** Offsets of every `byte` in the input (falls back to [0] so a choice always exists). */
function offsetsOf(input: Buffer, byte: number): number[] {
  const out: number[] = []
  for (let i = input.indexOf(byte); i !== -1; i = input.indexOf(byte, i + 1)) out.push(i)
  return out.length > 0 ? out : [0]
}

const INVALID_UTF8 = [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0x80, 0x80]].map((b) => Buffer.from(b))

/** Counterexamples print as the mutation's label, not as the whole input. */
const labelled = (m: Mutated): Mutated => Object.assign(m, { [fc.toStringMethod]: () => m.label })

/** One mutation of `input` (which must not be empty). */
export function mutation(input: Buffer): fc.Arbitrary<Mutated> {
  return anyMutation(input).map(labelled)
}

function anyMutation(input: Buffer): fc.Arbitrary<Mutated> {
  const n = input.length
  const at = fc.integer({ min: 0, max: n - 1 })
  const gap = fc.integer({ min: 0, max: n })
  const opens = offsetsOf(input, 0x7b).map((i) => i + 1) // just after a `{`: a new first member
  const afterOpen = fc.constantFrom(...opens)
  const digits = fc.constantFrom(...offsetsOf(input, 0x30).concat(offsetsOf(input, 0x31)))
  return fc.oneof(
    fc.tuple(at, fc.integer({ min: 0, max: 7 })).map(([i, bit]): Mutated => {
      const bytes = Buffer.from(input)
      bytes[i] = bytes[i]! ^ (1 << bit)
      return { label: `flip bit ${bit} at ${i}`, bytes, from: i, to: i }
    }),
    fc.tuple(at, fc.integer({ min: 1, max: 64 })).map(([i, len]): Mutated => {
      const end = Math.min(n, i + len)
      return { label: `cut ${i}..${end}`, bytes: Buffer.concat([input.subarray(0, i), input.subarray(end)]), from: i, to: end - 1 }
    }),
    at.map((i): Mutated => ({ label: `truncate at ${i}`, bytes: Buffer.from(input.subarray(0, i)), from: i, to: n - 1 })),
    fc.tuple(at, fc.integer({ min: 1, max: 200 }), gap).map(([i, len, to]) => insert(input, to, input.subarray(i, Math.min(n, i + len)), `splice ${i}+${len} to ${to}`)),
    gap.map((i) => insert(input, i, Buffer.from([0]), `NUL at ${i}`)),
    fc.tuple(gap, fc.constantFrom(...INVALID_UTF8)).map(([i, bad]) => insert(input, i, bad, `invalid UTF-8 ${bad.toString('hex')} at ${i}`)),
    fc.tuple(afterOpen, fc.integer({ min: 100, max: 60_000 }), fc.boolean()).map(([i, depth, arrays]) =>
      insert(input, i, `"deep":${arrays ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)},`, `nesting ${depth} at ${i}`),
    ),
    fc.tuple(gap, fc.integer({ min: 100, max: 20_000 })).map(([i, depth]) => insert(input, i, '['.repeat(depth), `unclosed nesting ${depth} at ${i}`)),
    fc.tuple(digits, fc.constantFrom('9'.repeat(400), 'e999999', '.' + '1'.repeat(500), '0000000000000000000001')).map(([i, what]) => insert(input, i, what, `huge number at ${i}`)),
    fc.tuple(afterOpen, fc.constantFrom('{"polluted":true}', 'null', '[1]', '"x"')).map(([i, value]) => insert(input, i, `"__proto__":${value},`, `__proto__ at ${i}`)),
    fc.tuple(afterOpen, fc.constantFrom('constructor', 'prototype', 'toString', 'hasOwnProperty')).map(([i, name]) => insert(input, i, `"${name}":{"x":1},`, `${name} at ${i}`)),
  )
}
