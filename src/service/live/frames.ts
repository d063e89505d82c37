/**
 * WebSocket text frames as a server sends them (RFC 6455, 5.2): FIN set, opcode 1, no mask, the
 * payload length in 7, 16 or 64 bits. The hub builds each event's frame once and writes the same
 * bytes to every subscriber's socket, which `ws`'s per-message send cannot do.
 */

/** One text frame holding `payload` (which must be UTF-8: stored canonical JSON is). */
export function textFrame(payload: Uint8Array): Buffer {
  const length = payload.length
  const head = length < 126 ? 2 : length < 65_536 ? 4 : 10
  const frame = Buffer.allocUnsafe(head + length)
  frame[0] = 0x81
  if (head === 2) frame[1] = length
  else if (head === 4) {
    frame[1] = 126
    frame.writeUInt16BE(length, 2)
  } else {
    frame[1] = 127
    frame.writeBigUInt64BE(BigInt(length), 2)
  }
  frame.set(payload, head)
  return frame
}
