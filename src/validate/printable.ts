/**
 * Text from scanned hosts made safe to print on a terminal: the one function every output meant
 * for people (messages, `--to human`, `url`, `hostport`, `nmap-grep`, `masscan-console`, CSV
 * cells) passes values through. A banner can hold ESC and BEL bytes that retitle or rewrite a
 * user's terminal, a CR that overwrites the line, a line break that forges a message line.
 * Each such character is written as JSON writes it (`\u001b`, `\n`), as validate's messages
 * quote values (codes.ts, show()); other text, backslashes included, is left as it is.
 */

/**
 * What a terminal may act on: C0 controls (ESC, BEL, CR, LF, BS, …), DEL, C1 controls (8-bit
 * CSI, OSC, …), the bidirectional embeddings, overrides and isolates (text shown in another
 * order than it is), and the line and paragraph separators.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'g')

const SHORT: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' }

const escaped = (c: string) => SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`

/**
 * `text` with every character a terminal may act on escaped (`\u001b`); `keep` lists the ones
 * left as they are (a CSV cell keeps its line breaks and tabs, which its quotes hold).
 */
export function printable(text: string, keep?: string): string {
  if (!UNSAFE.test(text)) return text
  return text.replace(UNSAFE_ALL, (c) => (keep !== undefined && keep.includes(c) ? c : escaped(c)))
}
