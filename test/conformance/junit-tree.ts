/** Parses XML with saxes (a conforming, strict XML parser) into a small element tree. */
import { SaxesParser } from 'saxes'

export interface Element {
  name: string
  attributes: Record<string, string>
  children: Element[]
  text: string
}

/** The root element; throws on anything that is not well-formed XML. */
export function parseXml(xml: string): Element {
  const parser = new SaxesParser()
  const root: Element = { name: '#document', attributes: {}, children: [], text: '' }
  const stack: Element[] = [root]
  parser.on('error', (error) => {
    throw error
  })
  parser.on('opentag', (tag) => {
    const element: Element = { name: tag.name, attributes: { ...(tag.attributes as Record<string, string>) }, children: [], text: '' }
    stack[stack.length - 1]!.children.push(element)
    stack.push(element)
  })
  parser.on('text', (text) => {
    stack[stack.length - 1]!.text += text
  })
  parser.on('closetag', () => {
    stack.pop()
  })
  parser.write(xml).close()
  if (root.children.length !== 1) throw new Error(`expected one root element, found ${root.children.length}`)
  return root.children[0]!
}

export const childrenNamed = (element: Element, name: string) => element.children.filter((c) => c.name === name)
