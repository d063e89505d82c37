/**
 * `service.credentials.raw`: bytes, written as standard padded base64 (what Go's encoding/json
 * reads into a `[]byte`; LeakIX's Go client stops on anything else). `null` when none, so `""`
 * becomes `null`, as for the other nullable text. Base64 broken over lines (MIME) is the same
 * bytes (Go's decoder skips line breaks too): the breaks are removed. Any other text is taken
 * for the credential itself: its UTF-8 bytes are encoded, with a warning saying so.
 */
import { BASE64 } from '../schema/patterns.js'
import { type Context, show } from './context.js'
import type { Field } from './field.js'
import { either, literal, replaced } from './pattern.js'

const BASE64_RE = new RegExp(BASE64)
/** The JSON text of a canonical value: `null` or a non-empty base64 string (no character needs escaping). */
const CANONICAL = `(?:null|(?!"")"${BASE64.slice(1, -1)}")`

/** Whether `value` is canonical raw text: non-empty standard padded base64. */
export const isBase64 = (value: string): boolean => BASE64_RE.test(value)

/** What normalize writes for a raw value that is not base64, and (when it is not the same bytes) the warning's message. */
export function encodeRaw(value: string): { text: string; message?: string } {
  const unbroken = value.replace(/\r?\n/g, '')
  if (unbroken !== value && isBase64(unbroken)) return { text: unbroken }
  return { text: Buffer.from(value, 'utf8').toString('base64'), message: `${show(value)} is not base64 (RFC 4648, padded): normalize takes it for the credential's text and writes the base64 of its UTF-8 bytes` }
}

export const nullableBase64: Field<string | null> = {
  empty: () => null,
  fix(value, pointer, ctx: Context) {
    if (value === null || value === '') return null
    if (typeof value !== 'string') {
      ctx.wrongType(pointer, 'base64 string or null', value)
      return null
    }
    if (isBase64(value)) return value
    const { text, message } = encodeRaw(value)
    if (message !== undefined) ctx.warn('bad_base64', pointer, message)
    return text
  },
  canonical: (value) => value === null || (typeof value === 'string' && value !== '' && isBase64(value)),
  pattern: literal(CANONICAL),
  lenient: either(replaced('""', 'null'), literal(CANONICAL)),
}
