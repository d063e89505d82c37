/**
 * The parts of the memory store's indexes that ingest only notes and a query sorts (issue 39:
 * work taken off the thread that answers lookups): each answers as a plain model of it does,
 * whatever the order of adds and queries. And the string helper that keeps index keys apart from
 * the texts they were cut from.
 */
import fc from 'fast-check'
import { runInNewContext } from 'node:vm'
import { setFlagsFromString } from 'node:v8'
import { describe, expect, it } from 'vitest'
import { addressBytes, inRange, parseRange } from '../../../../src/query/address.js'
import { canonicalIp } from '../../../../src/names/ip.js'
import { AddressOrder } from '../../../../src/service/store/memory/address-order.js'
import { HashOrder } from '../../../../src/service/store/memory/hash-order.js'
import { detach } from '../../../../src/service/store/memory/strings.js'

/** Adds (a value per new id) and queries, in any order. */
const steps = <T>(value: fc.Arbitrary<T>) => fc.array(fc.oneof(fc.record({ add: value }), fc.record({ ask: value })), { maxLength: 120 })

describe('HashOrder (event ids by fingerprint hash, sorted at the next query)', () => {
  it('gives exactly the ids added with a hash, ascending, before and after later adds (property)', () => {
    fc.assert(
      fc.property(steps(fc.integer({ min: 0, max: 12 })), (script) => {
        const order = new HashOrder()
        const model: number[] = [] // hash by id
        for (const step of script) {
          if ('add' in step) {
            order.add(model.length, step.add)
            model.push(step.add)
          } else {
            const want = model.flatMap((h, id) => (h === step.ask ? [id] : []))
            expect(Array.from(order.ids(step.ask))).toEqual(want)
          }
        }
        for (let h = 0; h <= 12; h++) expect(Array.from(order.ids(h))).toEqual(model.flatMap((x, id) => (x === h ? [id] : [])))
      }),
    )
  })

  it('holds 30-bit hashes apart at both ends of their range', () => {
    const order = new HashOrder()
    const hashes = [0x3fffffff, 0, 1, 0x3ffffffe, 0x3fffffff, 0]
    hashes.forEach((h, id) => order.add(id, h))
    expect(Array.from(order.ids(0x3fffffff))).toEqual([0, 4])
    expect(Array.from(order.ids(0))).toEqual([1, 5])
    expect(Array.from(order.ids(7))).toEqual([])
  })
})

describe('AddressOrder (addresses keyed at the next range query)', () => {
  const v4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(3)).map(([a, b, c]) => `10.${a & 3}.${b & 7}.${c}`)
  const v6 = fc.tuple(fc.nat(3), fc.nat(0xffff)).map(([a, b]) => canonicalIp(`2001:db8:${a}::${b.toString(16)}`)!)
  const address = fc.oneof(v4, v6)
  const range = fc.oneof(
    fc.tuple(v4, fc.integer({ min: 8, max: 32 })).map(([a, p]) => `${a}/${p}`),
    fc.tuple(v6, fc.integer({ min: 16, max: 128 })).map(([a, p]) => `${a}/${p}`),
  )

  it('gives the numbers of exactly the addresses in a range, however adds and queries interleave (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.record({ add: address }), fc.record({ ask: range })), { maxLength: 80 }), (script) => {
        const order = new AddressOrder()
        const seen: string[] = [] // address by number (each address once, as the store numbers them)
        for (const step of script) {
          if ('add' in step) {
            if (seen.includes(step.add)) continue
            order.add(seen.length, step.add)
            seen.push(step.add)
          } else {
            const r = parseRange(step.ask)!
            const want = seen.flatMap((a, n) => (inRange(addressBytes(a)!, r) ? [n] : []))
            expect([...order.inRange(r)].sort((a, b) => a - b)).toEqual(want)
          }
        }
      }),
    )
  })
})

describe('detach', () => {
  it('gives the same text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        expect(detach(text)).toBe(text)
      }),
    )
  })

  it('keeps no larger text alive that a key was cut from', () => {
    setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as () => void
    const heap = () => {
      gc()
      gc()
      return process.memoryUsage().heapUsed
    }
    const make = (i: number) => `${i}:${'x'.repeat(1 << 20)}` // 1 MiB each, made at run time (not a shared constant)
    const before = heap()
    const kept = Array.from({ length: 40 }, (_, i) => detach(make(i).slice(0, 20)))
    const grown = heap() - before
    expect(kept[3]).toBe(`3:${'x'.repeat(18)}`)
    // The slices alone would hold 40 MiB of parents; what is kept is a few hundred bytes.
    expect(grown).toBeLessThan(4 << 20)
  })
})
