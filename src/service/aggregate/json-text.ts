/**
 * JSON.stringify of a string and of an array of strings, the same text, with the common case
 * (printable ASCII without `"` or `\`: addresses, ports, plugin names) written without a call
 * to JSON.stringify, whose fixed cost was a sizeable part of a small aggregation line.
 */

/** JSON.stringify(text). */
export function jsonText(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return JSON.stringify(text)
  }
  return `"${text}"`
}

/** JSON.stringify(texts). */
export function jsonTexts(texts: readonly string[]): string {
  if (texts.length === 0) return '[]'
  let out = `[${jsonText(texts[0]!)}`
  for (let i = 1; i < texts.length; i++) out += `,${jsonText(texts[i]!)}`
  return `${out}]`
}
