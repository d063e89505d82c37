/** `fc.record` that always builds ordinary objects (fast-check may otherwise give null-prototype ones). */
import fc, { type Arbitrary } from 'fast-check'

export function record<T extends Record<string, Arbitrary<unknown>>>(model: T): Arbitrary<{ [K in keyof T]: T[K] extends Arbitrary<infer U> ? U : never }> {
  return fc.record(model, { noNullPrototype: true }) as never
}
