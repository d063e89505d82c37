/** A large ingest gives the event loop turns (issue 14): other work runs while it is going on. */
import { type AddressInfo, connect, createServer, type Socket } from 'node:net'
import { describe, expect, it } from 'vitest'
import { afterIoPoll, BUSY_SLICE_MS, noteRequest, SLICE_MS, Slicer } from '../../../src/service/ingest/slices.js'
import { ingestText, MemoryStore } from '../../../src/service/index.js'
import { makeEvent } from '../support.js'

describe('ingest in slices', () => {
  it('lets timers and I/O run between slices of a large ingest, and still stores every event', async () => {
    // Lenient documents (port as a number, time with an offset): the normalising, slower path.
    const docs = Array.from({ length: 4000 }, (_, i) => JSON.stringify({ ...makeEvent({ ip: `198.18.${i >> 8}.${i & 255}`, summary: 'x'.repeat(500) }), port: 80, time: '2024-01-01T00:00:00+02:00' }))
    const store = new MemoryStore()
    let turns = 0
    let done = false
    const tick = () => {
      if (done) return
      turns++
      setImmediate(tick)
    }
    setImmediate(tick)
    const report = await ingestText(store, docs.join('\n'))
    done = true
    expect(report).toMatchObject({ accepted: 4000, rejected: [] })
    // One turn per slice: without slicing the whole ingest is one turn.
    expect(turns).toBeGreaterThan(10)
  })

  it('yields so that I/O ready meanwhile is handled, even when the work resumed in the poll phase', async () => {
    // Ingest work resumes in the poll phase (a worker's answer, a socket's data): a request that
    // arrives on another connection while it runs must be read before the work goes on.
    const server = createServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const pair = async (): Promise<[Socket, Socket]> => {
      const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve))
      const client = connect((server.address() as AddressInfo).port, '127.0.0.1')
      await new Promise((resolve) => client.once('connect', resolve))
      return [client, await accepted]
    }
    const [workClient, workSide] = await pair()
    const [lookupClient, lookupSide] = await pair()
    const order = async (pass: () => Promise<unknown>): Promise<string[]> => {
      const seen: string[] = []
      const read = new Promise<void>((resolve) => lookupSide.once('data', () => resolve(void seen.push('request read'))))
      await new Promise<void>((resolve) => {
        workSide.once('data', () => {
          lookupClient.write('request')
          void pass().then(() => resolve(void seen.push('work goes on')))
        })
        workClient.write('answer')
      })
      await read
      return seen
    }
    try {
      expect(await order(afterIoPoll)).toEqual(['request read', 'work goes on'])
      // What one immediate gives, for contrast: the work goes on first (why afterIoPoll takes two).
      expect(await order(() => new Promise((resolve) => setImmediate(resolve)))).toEqual(['work goes on', 'request read'])
    } finally {
      for (const socket of [workClient, workSide, lookupClient, lookupSide]) socket.destroy()
      server.close()
    }
  })
})

describe('Slicer', () => {
  const spin = (ms: number) => {
    const end = performance.now() + ms
    while (performance.now() < end);
  }
  const turned = () => {
    let ran = false
    setImmediate(() => (ran = true))
    return () => ran
  }

  it('sizes a batch by what is left of the slice, and yields only when not even the minimum fits', async () => {
    const slicer = new Slicer(4, 10_000)
    await slicer.pause()
    slicer.measured(100, SLICE_MS / 10) // 100 documents take a tenth of a slice
    expect(slicer.size).toBe(1000)
    spin(SLICE_MS) // the slice is used up by other work (splitting lines, taking in an answer)
    expect(slicer.room()).toBe(4)
    const ran = turned()
    await slicer.pause()
    expect(ran()).toBe(true)
  })

  it('does not yield while the slice has room', async () => {
    const slicer = new Slicer(1, 10_000)
    slicer.measured(1, 1e-4)
    // Right after a yield the new slice is all room; a machine that stops this thread for half a
    // millisecond just then would make one attempt yield, so up to five are made.
    const yielded: boolean[] = []
    for (let attempt = 0; attempt < 5 && !yielded.includes(false); attempt++) {
      spin(SLICE_MS) // the slice is used up: this pause yields and starts a new one
      await slicer.pause()
      const ran = turned()
      await slicer.pause()
      yielded.push(ran())
    }
    expect(yielded).toContain(false)
  })

  it('takes short slices while requests come in, and whole ones again once they stop', async () => {
    const slicer = new Slicer(1, 100_000)
    slicer.measured(100, SLICE_MS / 10)
    const whole = slicer.size
    expect(whole).toBe(1000)
    const yieldOnce = async () => {
      spin(SLICE_MS)
      await slicer.pause()
    }
    await yieldOnce()
    noteRequest() // a lookup answered during the next turn of the event loop
    await yieldOnce()
    expect(slicer.size).toBe(Math.floor((whole * BUSY_SLICE_MS) / SLICE_MS))
    await yieldOnce()
    expect(slicer.size).toBe(whole)
  })
})
