/**
 * The pipe from the service to the live stream's fan-out process (channel.ts): however the
 * stream of records is cut into chunks, the fan-out process gets back every event, whole and
 * in order, with its leak flag.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type ChannelEvent, EventDecoder, EventRecords } from '../../src/service/live/channel.js'

describe('live stream channel', () => {
  it('decodes what was encoded, whatever the chunk boundaries', () => {
    const event = fc.record({ bytes: fc.uint8Array({ minLength: 1, maxLength: 300 }), leak: fc.boolean() })
    fc.assert(
      fc.property(fc.array(fc.array(event, { maxLength: 6 }), { minLength: 1, maxLength: 5 }), fc.array(fc.nat(), { maxLength: 12 }), (turns, cuts) => {
        const records = new EventRecords()
        const stream: Buffer[] = []
        for (const turn of turns) {
          for (const e of turn) records.add(e.bytes, e.leak)
          stream.push(records.take())
        }
        const whole = Buffer.concat(stream)
        const at = [...new Set(cuts.map((c) => c % (whole.length + 1)))].sort((a, b) => a - b)
        const decoder = new EventDecoder()
        const got: ChannelEvent[] = []
        let from = 0
        for (const to of [...at, whole.length]) {
          decoder.push(whole.subarray(from, to), got)
          from = to
        }
        expect(got.map((e) => ({ bytes: [...e.bytes], leak: e.leak }))).toEqual(turns.flat().map((e) => ({ bytes: [...e.bytes], leak: e.leak })))
      }),
      { numRuns: 200 },
    )
  })

  it('copies the bytes it is given (a store may reuse its memory)', () => {
    const records = new EventRecords()
    const bytes = Buffer.from('{"a":1}')
    records.add(bytes, true)
    bytes.fill(0)
    const got: ChannelEvent[] = []
    new EventDecoder().push(records.take(), got)
    expect(got.map((e) => [e.bytes.toString(), e.leak])).toEqual([['{"a":1}', true]])
  })
})
