/**
 * The rarer constructs of nmap's XML, for the scanner (xml-scanner.ts): comments, CDATA,
 * the DOCTYPE (`<!…>`) and processing instructions (`<?…?>`, the XML declaration among
 * them). Each reader gets the buffer and the index of its `<`, and returns the index past
 * the construct, or MORE when the buffer ends before it does.
 */
import { isSpace, nameEnd, startsName, XmlFault } from './xml-chars.js'

export const MORE = -1

const COMMENT = '<!--'
const CDATA = '<![CDATA['
const DOCTYPE = '<!DOCTYPE'

export interface Bang {
  kind: 'comment' | 'cdata' | 'doctype'
  /** Index past the construct (CDATA's text is `buf[lt + 9, end - 3)`), or MORE. */
  end: number
}

/** `<!--…-->`, `<![CDATA[…]]>` or `<!DOCTYPE …>` at `buf[lt]`. */
export function readBang(buf: string, lt: number, end: number): Bang {
  if (buf.startsWith(COMMENT, lt)) {
    const dashes = buf.indexOf('--', lt + 4)
    if (dashes === -1 || dashes + 2 >= end) return { kind: 'comment', end: MORE }
    if (buf.charCodeAt(dashes + 2) !== 0x3e) throw new XmlFault('malformed comment.', dashes + 3)
    return { kind: 'comment', end: dashes + 3 }
  }
  if (buf.startsWith(CDATA, lt)) {
    const close = buf.indexOf(']]>', lt + 9)
    return { kind: 'cdata', end: close === -1 || close + 2 >= end ? MORE : close + 3 }
  }
  if (buf.startsWith(DOCTYPE, lt)) return { kind: 'doctype', end: doctypeEnd(buf, lt + 9, end) }
  // Too short yet to tell which one it is.
  const head = buf.slice(lt, Math.min(end, lt + 9))
  if (end - lt < 9 && (COMMENT.startsWith(head) || CDATA.startsWith(head) || DOCTYPE.startsWith(head))) return { kind: 'comment', end: MORE }
  throw new XmlFault('incorrect syntax.', Math.min(end, lt + 9))
}

/** Index past the DOCTYPE's `>`: quoted strings and an internal subset `[…]` may hold `>`. */
function doctypeEnd(buf: string, from: number, end: number): number {
  let quote = 0
  let subset = false
  for (let i = from; i < end; i++) {
    const c = buf.charCodeAt(i)
    if (quote !== 0) {
      if (c === quote) quote = 0
    } else if (c === 0x22 || c === 0x27) quote = c
    else if (c === 0x5b /* [ */) subset = true
    else if (c === 0x5d /* ] */) subset = false
    else if (c === 0x3e /* > */ && !subset) return i + 1
  }
  return MORE
}

/** The XML declaration's pseudo-attributes, as XML 1.0 allows them (version first, required). */
const DECLARATION = /^\s+version\s*=\s*(["'])1\.[0-9]+\1(?:\s+encoding\s*=\s*(["'])[A-Za-z][A-Za-z0-9._-]*\2)?(?:\s+standalone\s*=\s*(["'])(?:yes|no)\3)?\s*$/

/**
 * `<?target …?>` at `buf[lt]`. The target `xml` is the XML declaration, allowed only as the
 * very first thing of the document (`declarationAllowed`).
 */
export function readInstruction(buf: string, lt: number, end: number, declarationAllowed: boolean): number {
  if (lt + 2 >= end) return MORE
  if (!startsName(buf, lt + 2)) {
    const c = buf.charCodeAt(lt + 2)
    throw new XmlFault(c === 0x3f || isSpace(c) ? 'processing instruction without a target.' : 'disallowed character in processing instruction name.', lt + 3)
  }
  const targetEnd = nameEnd(buf, lt + 2, end)
  if (targetEnd >= end) return MORE
  const after = buf.charCodeAt(targetEnd)
  if (after !== 0x3f && !isSpace(after)) throw new XmlFault('disallowed character in processing instruction name.', targetEnd + 1)
  const close = buf.indexOf('?>', targetEnd)
  if (close === -1 || close + 1 >= end) return MORE
  const target = buf.slice(lt + 2, targetEnd)
  if (target === 'xml') {
    if (!declarationAllowed) throw new XmlFault('an XML declaration must be at the start of the document.', targetEnd + 1)
    if (!DECLARATION.test(buf.slice(targetEnd, close))) throw new XmlFault('malformed XML declaration (version, then optional encoding and standalone).', close + 2)
  } else if (target.toLowerCase() === 'xml') throw new XmlFault('the XML declaration must appear at the start of the document.', close + 2)
  return close + 2
}
