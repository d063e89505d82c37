/**
 * Entry point of the live stream's fan-out process (started by fanout.ts): it is handed the
 * subscribers' connections, checked by the service, completes their WebSocket handshakes,
 * reads the new events from the pipe on fd 3 and writes their frames to the subscribers
 * (groups.ts). Messages are acted on in step with the pipe (fanout-messages.ts, `at`). Its
 * arguments are the configuration's `live_buffer_bytes` and `live_filter_work` (`none`: no
 * bound). It leaves when its parent does, or when told to close and its subscribers have gone.
 */
import { Socket } from 'node:net'
import { WebSocketServer } from 'ws'
import type { FromFanout, ToFanout } from './fanout-messages.js'
import { liveFilter } from './filter.js'
import { CLOSE_GRACE_MS, LiveGroups } from './groups.js'

/** Largest frame a subscriber may send (it sends none but control frames). */
const MAX_CLIENT_PAYLOAD = 4096

const send = (message: FromFanout) => {
  if (process.connected) process.send!(message, undefined, undefined, () => undefined)
}

const filterWork = process.argv[3] === undefined || process.argv[3] === 'none' ? undefined : Number(process.argv[3])
const groups = new LiveGroups({ maxBufferedBytes: Number(process.argv[2]), filterWork, onSlow: () => send({ t: 'slow' }) })
const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: MAX_CLIENT_PAYLOAD, clientTracking: false })
let closing = false

function subscribe(message: Extract<ToFanout, { t: 'sub' }>, socket: Socket | undefined): void {
  const { id } = message
  const filter = liveFilter(message.filter, message.scope)
  if (socket === undefined || closing || !filter.ok) {
    socket?.destroy()
    return send({ t: 'gone', id })
  }
  socket.on('error', () => socket.destroy())
  let added = false
  // `ws` answers a malformed handshake itself (400) without calling back.
  socket.once('close', () => added || send({ t: 'gone', id }))
  wss.handleUpgrade(message.req as never, socket, Buffer.from(message.head, 'base64'), (ws) => {
    added = true
    const left = () => {
      send({ t: 'removed', id })
      if (closing && groups.size === 0) process.exit(0)
    }
    groups.add(message.scope, filter.filter, ws, socket, left, message.run ?? null)
    send({ t: 'added', id })
  })
}

function act(message: ToFanout, socket: Socket | undefined): void {
  if (message.t === 'sub') subscribe(message, socket)
  else if (message.t === 'disconnect') groups.disconnect(message.code, message.reason)
  else if (message.t === 'close') {
    closing = true
    if (groups.size === 0) process.exit(0)
    groups.disconnect(1001, 'the service is stopping')
    // Each is cut after the grace; this is in case one is not.
    setTimeout(() => process.exit(0), 2 * CLOSE_GRACE_MS).unref()
  }
}

/** Bytes of events read from the pipe so far. */
let read = 0
/** Messages waiting for the pipe to reach their `at`, in the order sent. */
const due: { message: ToFanout; socket: Socket | undefined }[] = []

function actOnDue(): void {
  while (due.length > 0 && due[0]!.message.at <= read) {
    const { message, socket } = due.shift()!
    act(message, socket)
  }
}

process.on('message', (message: ToFanout, socket?: Socket) => {
  due.push({ message, socket })
  actOnDue()
})
process.on('disconnect', () => process.exit(0))

const events = new Socket({ fd: 3, readable: true, writable: false })
events.on('data', (chunk: Buffer) => {
  let from = 0
  // A message due inside this chunk: the events before it first (at `at` a record ends).
  while (due.length > 0 && due[0]!.message.at < read + chunk.length - from) {
    const cut = from + (due[0]!.message.at - read)
    if (cut > from) groups.hold(chunk.subarray(from, cut))
    read += cut - from
    from = cut
    actOnDue()
  }
  if (from < chunk.length) groups.hold(chunk.subarray(from))
  read += chunk.length - from
  actOnDue()
})
events.on('end', () => process.exit(0))
send({ t: 'ready' })
