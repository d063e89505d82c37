/**
 * The messages between the service's process and the live stream's fan-out process
 * (fanout.ts, fanout-child.ts), over their IPC channel; new events go over a pipe of their own
 * (channel.ts).
 */
import type { LiveScope } from './groups.js'

/** What the fan-out process needs of the upgrade request to complete the handshake (`ws`'s handleUpgrade). */
export interface UpgradeRequest {
  method: string
  url: string
  headers: Record<string, string | undefined>
}

/**
 * `at`: how many bytes of events the service had written to the pipe when it sent the message.
 * The child acts on a message once it has read that far, and before what follows: so a new
 * subscriber gets exactly the events stored after it was handed over, and a close frame comes
 * after every event stored before it.
 */
export type ToFanout = { at: number } & (
  /** A subscriber's connection (the message's handle), checked and ready for the 101; `head` in base64; `run`: its conformance run, if any. */
  | { t: 'sub'; id: number; scope: LiveScope; filter: string; run: string | null; req: UpgradeRequest; head: string }
  /** Close every subscriber with this code. */
  | { t: 'disconnect'; code: number; reason: string }
  /** The service is stopping: close every subscriber (1001) and exit. */
  | { t: 'close' }
)

export type FromFanout =
  /** Listening: messages may come. */
  | { t: 'ready' }
  /** Subscriber `id` had its 101 and is a member. */
  | { t: 'added'; id: number }
  /** Subscriber `id` never became one (its connection closed, or `ws` refused the handshake). */
  | { t: 'gone'; id: number }
  /** Member `id` has left. */
  | { t: 'removed'; id: number }
  /** A member was disconnected for falling behind. */
  | { t: 'slow' }

/** The headers handed on with a connection: those `ws` reads for the handshake. */
export const HANDSHAKE_HEADERS = ['upgrade', 'connection', 'sec-websocket-key', 'sec-websocket-version', 'sec-websocket-extensions', 'sec-websocket-protocol'] as const
