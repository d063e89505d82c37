/**
 * The nmap XML scanner against saxes (the general parser it replaced): on generated nmap-like
 * documents both give the same start tags, attributes, end tags and text (references
 * decoded), whatever the chunks; on broken documents the same first error, at the same
 * line and column, for the breaks nmap output meets (cut files, wrong nesting, references).
 */
import fc from 'fast-check'
import { SaxesParser } from 'saxes'
import { describe, expect, it } from 'vitest'
import { XmlScanner, XmlSyntaxError } from '../../../src/convert/nmap/xml-scanner.js'

type Item = ['open', string, [string, string][]] | ['close', string] | ['text', string] | ['error', string]

/** saxes' items: text inside the root only (the scanner passes no text outside it), joined. */
function saxesItems(chunks: string[]): Item[] {
  const items: Item[] = []
  let depth = 0
  const parser = new SaxesParser({ xmlns: false, position: true })
  const text = (t: string) => {
    if (depth > 0) items.push(['text', t])
  }
  parser.on('opentag', (tag) => {
    items.push(['open', tag.name, Object.entries(tag.attributes)])
    depth++
  })
  parser.on('closetag', (tag) => {
    items.push(['close', tag.name])
    depth--
  })
  parser.on('text', text)
  parser.on('cdata', text)
  parser.on('error', (error) => {
    throw error
  })
  try {
    for (const chunk of chunks) parser.write(chunk)
    parser.close()
  } catch (error) {
    items.push(['error', (error as Error).message])
  }
  return joinText(items)
}

function scannerItems(chunks: string[]): Item[] {
  const items: Item[] = []
  const scanner = new XmlScanner({
    open: (name, a) => items.push(['open', name, Array.from({ length: a.size }, (_, k): [string, string] => [a.name(k), a.value(k)])]),
    close: (name) => items.push(['close', name]),
    text: (t) => items.push(['text', t]),
  })
  scanner.capturing = true
  try {
    for (const chunk of chunks) scanner.write(chunk)
    scanner.flush()
    const [first] = scanner.end()
    if (first !== undefined) items.push(['error', first])
  } catch (error) {
    if (!(error instanceof XmlSyntaxError)) throw error
    items.push(['error', error.message])
  }
  return joinText(items)
}

function joinText(items: Item[]): Item[] {
  const out: Item[] = []
  for (const item of items) {
    const last = out[out.length - 1]
    if (item[0] === 'text' && item[1] === '') continue
    if (item[0] === 'text' && last?.[0] === 'text') last[1] += item[1]
    else out.push(item)
  }
  return out
}

// --- nmap-like documents ----------------------------------------------------------------------

const NAMES = ['nmaprun', 'host', 'port', 'state', 'service', 'cpe', 'script', 'table', 'elem', 'x-y.z', 'ns:a', 'é', '_1']
const ATTRS = ['id', 'output', 'key', 'portid', 'x-y', 'é', 'ns:b']
/** Raw text pieces and how XML may spell them (references, CDATA, line ends). */
const piece = fc.constantFrom('a', ' ', 'Café ☕', '😀', '&amp;', '&lt;', '&gt;', '&quot;', '&apos;', '&#xa;', '&#10;', '&#x1F600;', '&#233;', '\n', '\r\n', '\t', ']', ']]', '>', '"', "'")
const textOf = fc.array(piece, { maxLength: 6 }).map((p) => p.join('').replace(/"/g, '&quot;'))

interface Node {
  name: string
  attrs: [string, string, string][]
  children: (Node | string)[]
}

const node: fc.Arbitrary<Node> = fc.letrec<{ node: Node }>((tie) => ({
  node: fc.record({
    name: fc.constantFrom(...NAMES),
    attrs: fc.uniqueArray(fc.tuple(fc.constantFrom(...ATTRS), textOf, fc.constantFrom('"', "'")), { selector: (a) => a[0], maxLength: 3 }),
    children: fc.array(
      fc.oneof(
        { weight: 3, arbitrary: textOf.map((t) => t.replace(/>/g, '&gt;')) },
        { weight: 1, arbitrary: fc.constantFrom('<!-- a comment - with -->', '<![CDATA[<raw> & ]] text]]>', '<?pi body?>', '\n') },
        { weight: 3, arbitrary: tie('node') },
      ),
      { maxLength: 3, depthIdentifier: 'tree' },
    ),
  }),
})).node

function render(n: Node | string): string {
  if (typeof n === 'string') return n
  const attrs = n.attrs.map(([name, value, q]) => ` ${name}=${q}${q === "'" ? value.replace(/'/g, '&apos;') : value}${q}`).join('')
  return n.children.length === 0 ? `<${n.name}${attrs}/>` : `<${n.name}${attrs}>${n.children.map(render).join('')}</${n.name}>`
}

const PROLOG = fc.constantFrom(
  '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE nmaprun>\n<?xml-stylesheet href="file:///usr/share/nmap/nmap.xsl" type="text/xsl"?>\n<!-- Nmap scan -->\n',
  '<?xml version="1.0"?>\r\n<!-- masscan -->\r\n',
  '',
  '\n \n',
)
const document = fc.tuple(PROLOG, node, fc.constantFrom('', '\n', '\n<!-- end -->\n')).map(([head, root, tail]) => head + render(root) + tail)

/** The document cut at `points` (positions in UTF-16 units, as decoded chunks may be). */
function cut(text: string, points: number[]): string[] {
  const sorted = [...new Set(points.map((p) => p % (text.length + 1)))].sort((a, b) => a - b)
  const parts: string[] = []
  let last = 0
  for (const p of [...sorted, text.length]) {
    parts.push(text.slice(last, p))
    last = p
  }
  return parts
}

/** Cuts only between whole characters (a decoder never splits a surrogate pair). */
const wholeChars = (text: string, p: number) => !(p > 0 && p < text.length && text.charCodeAt(p - 1) >= 0xd800 && text.charCodeAt(p - 1) <= 0xdbff)

describe('nmap XML scanner: events equal saxes', () => {
  it('on generated nmap-like documents, in random chunks', () => {
    fc.assert(
      fc.property(document, fc.array(fc.nat(), { maxLength: 8 }), (xml, points) => {
        const expected = saxesItems([xml])
        expect(expected.some((i) => i[0] === 'error'), JSON.stringify(expected)).toBe(false)
        expect(scannerItems([xml])).toEqual(expected)
        expect(scannerItems(cut(xml, points.filter((p) => wholeChars(xml, p % (xml.length + 1)))))).toEqual(expected)
      }),
      { numRuns: 300 },
    )
  })

  it('split at every chunk boundary', () => {
    fc.assert(
      fc.property(document.filter((xml) => xml.length < 400), (xml) => {
        const expected = saxesItems([xml])
        for (let p = 1; p < xml.length; p++) if (wholeChars(xml, p)) expect(scannerItems([xml.slice(0, p), xml.slice(p)])).toEqual(expected)
      }),
      { numRuns: 40 },
    )
  })
})

describe('nmap XML scanner: errors read as saxes', () => {
  const head = '<?xml version="1.0"?>\n<nmaprun a="1">\n'
  const cases: [string, string][] = [
    ['wrong end tag', `${head}<host><port></host>\n</nmaprun>`],
    ['end tag without start', `${head}</nmaprun></host>`],
    ['file cut inside a tag', `${head}<host><port portid="2`],
    ['file cut inside text', `${head}<host>abc`],
    ['undefined entity', `${head}<elem>a &nbsp; b</elem></nmaprun>`],
    ['bad character reference', `${head}<elem>&#0;</elem></nmaprun>`],
    ['empty reference', `${head}<elem a="&;"/></nmaprun>`],
    ['text before the root', `junk\n${head}</nmaprun>`],
    ['text after the root', `${head}</nmaprun>\njunk<!-- -->`],
    ['only text', 'hello'],
    ['second root', `${head}</nmaprun>\n<nmaprun/>`],
    ['< in an attribute', `${head}<port a="x<y"/></nmaprun>`],
    ['duplicate attribute', `${head}<port a="1" a="2"/></nmaprun>`],
    ['unquoted attribute', `${head}<port a=1/></nmaprun>`],
    ['attribute without value', `${head}<port a /></nmaprun>`],
    ['no space between attributes', `${head}<port a="1"b="2"/></nmaprun>`],
    [']]> in text', `${head}<elem>a]]>b</elem></nmaprun>`],
    ['control character', `${head}<elem>a\u0001b</elem></nmaprun>`],
    ['double dash in a comment', `${head}<!-- a -- b --></nmaprun>`],
    ['empty end tag', `${head}</></nmaprun>`],
    ['bad tag name', `${head}<1port/></nmaprun>`],
    ['misplaced XML declaration', `\n${head}</nmaprun>`],
    ['wide characters before the error', `${head}<e>😀😀é</f></nmaprun>`],
  ]
  for (const [name, xml] of cases) {
    it(name, () => {
      // Text is passed on as it comes, saxes holds it until the next tag: compared without it.
      const expected = saxesItems([xml]).filter((i) => i[0] !== 'text')
      const error = expected[expected.length - 1]
      expect(error?.[0]).toBe('error')
      expect(scannerItems([xml]).filter((i) => i[0] !== 'text')).toEqual(expected)
      // Cut anywhere, the first error is the same.
      for (let p = 1; p < xml.length; p++) if (wholeChars(xml, p)) expect(scannerItems([xml.slice(0, p), xml.slice(p)]).pop()).toEqual(error)
    })
  }
})

describe('nmap XML scanner: damage is found as saxes finds it', () => {
  const edit = fc.tuple(fc.nat(), fc.constantFrom('', '<', '>', '&', '/', '"', "'", '=', ' ', '\u0001', 'x', '</a>', '<b>', ']]>', '&#0;', '-->', '<!--'), fc.integer({ min: 0, max: 3 }))
  it('a document with one edit (a cut, an insertion) is rejected by both or by neither', () => {
    fc.assert(
      fc.property(document, edit, (xml, [at, insert, remove]) => {
        const p = at % (xml.length + 1)
        if (!wholeChars(xml, p) || !wholeChars(xml, Math.min(xml.length, p + remove))) return
        const broken = xml.slice(0, p) + insert + xml.slice(p + remove)
        const expected = saxesItems([broken]).find((i) => i[0] === 'error')
        const got = scannerItems([broken]).find((i) => i[0] === 'error')
        expect(got !== undefined, `${JSON.stringify(broken)}: saxes ${JSON.stringify(expected)}, scanner ${JSON.stringify(got)}`).toBe(expected !== undefined)
      }),
      { numRuns: 3000 },
    )
  })
})

describe('nmap XML scanner: long constructs', () => {
  it('an attribute, a text and a comment far longer than a chunk come out whole', () => {
    const long = 'ab&amp;c&#xa;'.repeat(30_000)
    const xml = `<nmaprun><script output="${long}"><elem key="pem">${long}</elem><!-- ${'x'.repeat(200_000)} --></script></nmaprun>`
    const chunks = xml.match(/[\s\S]{1,1000}/g)!
    const expected = saxesItems([xml])
    expect(expected).toHaveLength(7)
    expect(scannerItems(chunks)).toEqual(expected)
  })
})
