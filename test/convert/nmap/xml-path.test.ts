/**
 * ElementPath counts same-named siblings in reused lists, and past 16 distinct names in a Map:
 * its path must be the one a plain record of the whole tree gives.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ElementPath } from '../../../src/convert/nmap/xml-path.js'

const REPEATING = new Set(['host', 'port', 'script', 'table', 'elem', 'hostname', 'address', 'cpe', 'osmatch', 'extraports', 'hop'])

/** The model: every open element keeps the names of all its children so far. */
interface Node {
  name: string
  index: number
  children: string[]
}

const modelPath = (open: Node[]) =>
  open.length === 1 ? '/' : open.slice(1).map((n) => (n.index > 1 || REPEATING.has(n.name) ? `/${n.name}[${n.index}]` : `/${n.name}`)).join('')

describe('nmap XML: element paths', () => {
  it('numbers same-named siblings as a record of the whole tree does', () => {
    // Few names (lists) and up to 40 (past the Map threshold), with closes in between.
    const names = fc.oneof(fc.constantFrom('host', 'port', 'elem', 'table', 'x'), fc.integer({ min: 0, max: 39 }).map((i) => `n${i}`))
    // An open, a close, or a childless element (open and close): those pile up siblings.
    const op = fc.oneof(
      names.map((name) => [name]),
      fc.constant([null]),
      names.map((name) => [name, null]),
    )
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }).map((list) => list.flat()), (ops) => {
        const path = new ElementPath()
        const open: Node[] = [{ name: '', index: 1, children: [] }]
        for (const name of ops) {
          if (name === null) {
            if (open.length === 1) continue
            path.close()
            open.pop()
          } else {
            const parent = open[open.length - 1]!
            parent.children.push(name)
            const index = parent.children.filter((c) => c === name).length
            path.open(name)
            open.push({ name, index, children: [] })
          }
          expect(path.toString()).toBe(modelPath(open))
          expect(path.current).toBe(open[open.length - 1]!.name)
        }
      }),
      { numRuns: 200, seed: 11 },
    )
  })

  it('counts past 16 distinct sibling names', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 24 }), { minLength: 17, maxLength: 120 }), (picks) => {
        const path = new ElementPath()
        path.open('root')
        const seen: string[] = []
        for (const pick of picks) {
          const name = `n${pick}`
          seen.push(name)
          const index = seen.filter((s) => s === name).length
          path.open(name)
          expect(path.toString()).toBe(index > 1 ? `/root/${name}[${index}]` : `/root/${name}`)
          path.close()
        }
      }),
      { numRuns: 100, seed: 11 },
    )
  })
})
