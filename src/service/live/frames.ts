/**
 * WebSocket text frames as a server sends them (RFC 6455, 5.2): FIN set, opcode 1, no mask, the
 * payload length in 7, 16 or 64 bits. The fan-out process writes a group's frames into one
 * buffer and that same buffer to every member's socket, which `ws`'s per-message send cannot do.
 */

/** Bytes of a text frame's head for a payload of `length` bytes. */
export const frameHeadLength = (length: number): number => (length < 126 ? 2 : length < 65_536 ? 4 : 10)

/** Writes the text frame of `payload` (UTF-8: stored canonical JSON is) into `out` at `at`; returns where it ends. */
export function writeTextFrame(out: Buffer, at: number, payload: Uint8Array): number {
  const length = payload.length
  const head = frameHeadLength(length)
  out[at] = 0x81
  if (head === 2) out[at + 1] = length
  else if (head === 4) {
    out[at + 1] = 126
    out.writeUInt16BE(length, at + 2)
  } else {
    out[at + 1] = 127
    out.writeBigUInt64BE(BigInt(length), at + 2)
  }
  out.set(payload, at + head)
  return at + head + length
}

/** One text frame holding `payload`. */
export function textFrame(payload: Uint8Array): Buffer {
  const frame = Buffer.allocUnsafe(frameHeadLength(payload.length) + payload.length)
  writeTextFrame(frame, 0, payload)
  return frame
}
