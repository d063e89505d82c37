/**
 * A streaming XML tokenizer for what nmap writes with `-oX` (and masscan's copy of it): start
 * and end tags with attributes, text with the five named and the numeric references,
 * comments, processing instructions, the DOCTYPE, CDATA. It jumps to the next `<` with
 * indexOf rather than reading character by character, hands the handler tag names and an
 * attribute view (xml-attributes.ts) rather than objects, and passes text only while the
 * handler captures it. Well-formedness is still checked (nesting, names, attribute syntax,
 * references, characters, text outside the root): the first break stops the scan with an
 * XmlSyntaxError that reads as saxes' did (`line:column: message`).
 *
 * Input arrives in decoded chunks; a construct cut by a chunk's end is carried over and
 * read again with the next chunk (text is passed on as it comes; only a cut reference waits).
 */
import { readAttribute, XmlAttributes } from './xml-attributes.js'
import { DISALLOWED, decode, isSpace, nameEnd, startsName, XmlFault } from './xml-chars.js'
import { MORE, readBang, readInstruction } from './xml-markup.js'
import { TextPosition } from './xml-position.js'

export interface XmlHandler {
  /** A start tag; `attributes` may be read only during the call. */
  open(name: string, attributes: XmlAttributes): void
  /** An end tag (also right after `open` for an empty-element tag `<x/>`). */
  close(name: string): void
  /** Text content, decoded, in one or more pieces; called only while `capturing` is true. */
  text(text: string): void
}

/** A well-formedness error: `message` is `line:column: what`, `line` the line alone. */
export class XmlSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message)
  }
}

/** Text outside the root cut by a chunk's end waits for its end up to this length (then it is reported). */
const OUTSIDE_WAIT = 4096
/** Past this length, a carried construct waits until the text after it is as long (no quadratic re-reading). */
const LONG_CARRY = 1 << 16

export class XmlScanner {
  /** Set by the handler: whether text content goes to `handler.text`. */
  capturing = false
  /** Unread input: what was carried over, then the latest chunk. */
  private buf = ''
  /** Where the handler's current call stands (the index just past the tag's `>`). */
  private at = 0
  private readonly open: string[] = []
  private sawRoot = false
  private closedRoot = false
  private sawDoctype = false
  /** Nothing consumed yet: an XML declaration may still come. */
  private atStart = true
  /** In flush(): the input has ended. */
  private flushing = false
  /** A `\r` ending the last chunk: `\r\n` may straddle two. */
  private heldReturn = false
  /** Don't re-read a long carried construct before the buffer is this long. */
  private retryAt = 0
  /** Cached next `<`, `&` and `]]>` in the buffer (-1: to look for; past the end: none). */
  private nextLt = -1
  private nextAmp = -1
  private nextCdataEnd = -1
  private readonly position = new TextPosition()
  private readonly attributes = new XmlAttributes()

  constructor(private readonly handler: XmlHandler) {}

  /** Line of the tag being handled (where its `>` is). */
  get line(): number {
    return this.position.lineAt(this.buf, this.at)
  }

  /** Feeds decoded text; throws XmlSyntaxError at the first well-formedness error. */
  write(chunk: string): void {
    let text = this.heldReturn ? `\r${chunk}` : chunk
    this.heldReturn = false
    if (text.includes('\r')) {
      // XML reads `\r\n` and a lone `\r` as `\n`; lines and columns count them as saxes does.
      this.heldReturn = text.endsWith('\r')
      text = (this.heldReturn ? text.slice(0, -1) : text).replace(/\r\n?/g, '\n')
    }
    const from = this.buf.length
    // join() makes one flat string, where `+` would make a rope that every charCodeAt walks.
    this.buf = from === 0 ? text : [this.buf, text].join('')
    // The cached places were looked for in the shorter buffer.
    this.nextLt = this.nextAmp = this.nextCdataEnd = -1
    const bad = text.search(DISALLOWED)
    if (bad === -1 && this.buf.length < this.retryAt) return
    this.run(bad === -1 ? this.buf.length : from + bad, bad !== -1)
  }

  /**
   * End of input: reads what was still waiting (a lone `\r`, a long construct); throws
   * XmlSyntaxError when that breaks a rule, as write() does.
   */
  flush(): void {
    if (this.heldReturn) {
      // A last lone `\r` is a line end.
      this.heldReturn = false
      this.write('\n')
    }
    this.retryAt = 0
    this.flushing = true
    if (this.buf !== '') this.write('')
  }

  /**
   * After flush(): saxes' end-of-document messages, in its order (`unclosed tag: name` for
   * each open element, innermost first, then `unexpected end.` when a construct is cut).
   */
  end(): string[] {
    const errors: string[] = []
    const where = this.position.where(this.buf, this.buf.length)
    if (!this.sawRoot) errors.push(`${where}: document must contain a root element.`)
    for (let k = this.open.length - 1; k >= 0; k--) errors.push(`${where}: unclosed tag: ${this.open[k]}`)
    // What is left is a cut construct, or `]` kept back from text (no `]]>` can follow now).
    if (/[^\]]/.test(this.buf)) errors.push(`${where}: unexpected end.`)
    return errors
  }

  /** Line where the input ends (after flush()). */
  get endLine(): number {
    return this.position.lineAt(this.buf, this.buf.length)
  }

  /** Scans the buffer up to `end` (the buffer's end, or a disallowed character). */
  private run(end: number, bad: boolean): void {
    let stop: number
    try {
      stop = this.scan(end)
      if (bad) throw new XmlFault('disallowed character.', end + 1)
    } catch (error) {
      if (!(error instanceof XmlFault)) throw error
      const at = Math.min(error.at, this.buf.length)
      throw new XmlSyntaxError(`${this.position.where(this.buf, at)}: ${error.message}`, this.position.lineAt(this.buf, at))
    }
    if (stop > 0) {
      this.atStart = false
      this.position.rebase(this.buf, stop)
      this.buf = this.buf.slice(stop)
      this.at = 0
    }
    this.retryAt = this.buf.length > LONG_CARRY ? 2 * this.buf.length : 0
  }

  /** Reads complete constructs from the buffer; returns where the unread rest starts. */
  private scan(end: number): number {
    const buf = this.buf
    let pos = 0
    while (pos < end) {
      if (this.nextLt < pos) this.nextLt = indexOrPast(buf, '<', pos)
      const lt = Math.min(this.nextLt, end)
      if (lt > pos) {
        const stop = this.text(buf, pos, lt, lt === end)
        if (stop < lt || lt === end) return stop
      }
      const next = this.markup(buf, lt, end)
      if (next === MORE) return lt
      pos = next
    }
    return pos
  }

  /** Text `buf[from, to)`; `partial` when the chunk ends there. Returns how far it was read. */
  private text(buf: string, from: number, to: number, partial: boolean): number {
    if (this.open.length === 0) {
      for (let i = from; i < to; i++) {
        if (isSpace(buf.charCodeAt(i))) continue
        // Reported where the text ends, as saxes does; a short cut piece waits for the rest.
        if (partial && !this.flushing && to - from < OUTSIDE_WAIT) return from
        throw new XmlFault('text data outside of root node.', partial ? to : to + 1)
      }
      return to
    }
    let stop = to
    // `]` or `]]` at a chunk's end may begin a `]]>` (forbidden in text): kept for the next one.
    if (partial) while (stop > from && to - stop < 2 && buf.charCodeAt(stop - 1) === 0x5d) stop--
    if (this.nextCdataEnd < from) this.nextCdataEnd = indexOrPast(buf, ']]>', from)
    if (this.nextCdataEnd + 2 < stop) throw new XmlFault('the string "]]>" is disallowed in char data.', this.nextCdataEnd + 3)
    if (this.nextAmp < from) this.nextAmp = indexOrPast(buf, '&', from)
    if (this.nextAmp < stop) {
      const decoded = decode(buf, from, stop, false, partial)
      if (this.capturing && decoded.text !== '') this.handler.text(decoded.text)
      return decoded.stop
    }
    if (this.capturing && stop > from) this.handler.text(buf.slice(from, stop))
    return stop
  }

  /** The construct at `buf[lt] === '<'`; returns the index past it, or MORE. */
  private markup(buf: string, lt: number, end: number): number {
    if (lt + 1 >= end) return MORE
    const c = buf.charCodeAt(lt + 1)
    if (c === 0x2f /* / */) return this.closeTag(buf, lt, end)
    if (c === 0x21 /* ! */) {
      const read = readBang(buf, lt, end)
      if (read.end === MORE) return MORE
      if (read.kind === 'doctype') {
        if (this.sawRoot || this.sawDoctype) throw new XmlFault('inappropriately located doctype declaration.', lt + 9)
        this.sawDoctype = true
      } else if (read.kind === 'cdata') {
        if (this.open.length === 0) throw new XmlFault('text data outside of root node.', lt + 9)
        if (this.capturing && read.end - 3 > lt + 9) this.handler.text(buf.slice(lt + 9, read.end - 3))
      }
      return read.end
    }
    if (c === 0x3f /* ? */) return readInstruction(buf, lt, end, this.atStart && lt === 0)
    if (!startsName(buf, lt + 1)) throw new XmlFault('disallowed character in tag name', lt + 2)
    return this.openTag(buf, lt, end)
  }

  private openTag(buf: string, lt: number, end: number): number {
    const nameStop = nameEnd(buf, lt + 1, end)
    if (nameStop >= end) return MORE
    if (this.open.length === 0) {
      if (this.closedRoot) throw new XmlFault('documents may contain only one root.', nameStop + 1)
      this.sawRoot = true
    }
    const attributes = this.attributes
    attributes.reset(buf)
    let i = nameStop
    let c = buf.charCodeAt(i)
    if (c !== 0x3e && c !== 0x2f && !isSpace(c)) throw new XmlFault('disallowed character in tag name.', i + 1)
    let empty = false
    for (;;) {
      let spaced = false
      while (i < end && isSpace((c = buf.charCodeAt(i)))) {
        i++
        spaced = true
      }
      if (i >= end) return MORE
      if (c === 0x3e /* > */) {
        i++
        break
      }
      if (c === 0x2f /* / */) {
        if (i + 1 >= end) return MORE
        if (buf.charCodeAt(i + 1) !== 0x3e) throw new XmlFault('forward-slash in opening tag not followed by >.', i + 2)
        i += 2
        empty = true
        break
      }
      if (!startsName(buf, i)) throw new XmlFault('disallowed character in attribute name.', i + 1)
      if (!spaced) throw new XmlFault('no whitespace between attributes.', i + 1)
      i = readAttribute(buf, i, end, attributes)
      if (i === MORE) return MORE
    }
    const twice = attributes.duplicate()
    if (twice !== undefined) throw new XmlFault(`duplicate attribute: ${twice}.`, i)
    const name = buf.slice(lt + 1, nameStop)
    this.at = i
    this.handler.open(name, attributes)
    if (empty) {
      this.handler.close(name)
      if (this.open.length === 0) this.closedRoot = true
    } else this.open.push(name)
    return i
  }

  private closeTag(buf: string, lt: number, end: number): number {
    const nameStart = lt + 2
    const open = this.open
    const expected = open[open.length - 1]
    // The usual case first: `</name>` of the innermost element, compared in place.
    if (expected !== undefined && buf.charCodeAt(nameStart + expected.length) === 0x3e && buf.startsWith(expected, nameStart)) {
      const next = nameStart + expected.length + 1
      if (next <= end) {
        open.pop()
        this.at = next
        this.handler.close(expected)
        if (open.length === 0) this.closedRoot = true
        return next
      }
    }
    const nameStop = nameEnd(buf, nameStart, end)
    let i = nameStop
    while (i < end && isSpace(buf.charCodeAt(i))) i++
    if (i >= end) return MORE
    if (buf.charCodeAt(i) !== 0x3e) throw new XmlFault('disallowed character in closing tag.', i + 1)
    i++
    if (nameStop === nameStart) throw new XmlFault('weird empty close tag.', i)
    this.at = i
    const top = open.pop()
    if (top === undefined) throw new XmlFault(`unmatched closing tag: ${buf.slice(nameStart, nameStop)}.`, i)
    // Like saxes, a wrong end tag closes the innermost element before failing.
    this.handler.close(top)
    if (top.length !== nameStop - nameStart || !buf.startsWith(top, nameStart)) throw new XmlFault('unexpected close tag.', i)
    if (open.length === 0) this.closedRoot = true
    return i
  }
}

/** Index of `what` in `buf` from `from`, or past the buffer's end when absent. */
function indexOrPast(buf: string, what: string, from: number): number {
  const at = buf.indexOf(what, from)
  return at === -1 ? buf.length + 1 : at
}
