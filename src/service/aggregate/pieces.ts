/**
 * Text made of pieces (strings and bytes, as an aggregation line is: aggregate/lines.ts),
 * written into one buffer without joining the pieces first.
 */
/** The UTF-8 length of the pieces together. */
export function piecesLength(pieces: readonly (Uint8Array | string)[]): number {
  let bytes = 0
  for (const piece of pieces) bytes += typeof piece === 'string' ? Buffer.byteLength(piece) : piece.length
  return bytes
}

/**
 * At least the UTF-8 length of the pieces together, without encoding the strings (Buffer.byteLength
 * was a sizeable part of writing a line): a UTF-16 unit is at most three bytes.
 */
export function piecesRoom(pieces: readonly (Uint8Array | string)[]): number {
  let bytes = 0
  for (const piece of pieces) bytes += typeof piece === 'string' ? 3 * piece.length : piece.length
  return bytes
}

/** Writes the pieces into `out` from `at`; the index after them. */
export function writePieces(out: Buffer, at: number, pieces: readonly (Uint8Array | string)[]): number {
  for (const piece of pieces) {
    if (typeof piece === 'string') at = writeText(out, at, piece)
    else {
      out.set(piece, at)
      at += piece.length
    }
  }
  return at
}

/**
 * Writes a string as UTF-8: a short ASCII string byte by byte, which costs less than a call to
 * Buffer.write; anything else by it. Up to about 24 characters the loop is cheaper, beyond it the
 * call (measured on Node 20: a line's 120-character members took 650 ns a string by the loop,
 * 190 by the call).
 */
function writeText(out: Buffer, at: number, text: string): number {
  const n = text.length
  if (n > SHORT) return at + out.write(text, at)
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i)
    if (c > 0x7f) return at + out.write(text, at)
    out[at + i] = c
  }
  return at + n
}

/** The longest string written byte by byte. */
const SHORT = 24

/** The pieces as one buffer (`bytes`: their length, when known). */
export function joinPieces(pieces: readonly (Uint8Array | string)[], bytes = piecesLength(pieces)): Buffer {
  const out = Buffer.allocUnsafe(bytes)
  writePieces(out, 0, pieces)
  return out
}

/**
 * Several records already written as lines, each ending with a newline: sent as they are, not
 * copied. `written` is called once they are written to the client (their buffer may be reused).
 */
export class LineChunk {
  constructor(
    readonly bytes: Uint8Array,
    readonly written?: () => void,
  ) {}
}
