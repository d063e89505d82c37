/**
 * Entry point of a prepare worker thread (large ingests, see ../prepare-pool.ts): turns each
 * batch of JSON texts it is sent into their prepare() results, in the same order. The parsed
 * event is left out of the answer (the store keeps the JSON; a listener parses it when needed),
 * so the main thread only copies strings back.
 */
import { parentPort } from 'node:worker_threads'
import { JsonText, prepare, type PrepareResult } from './prepare.js'

parentPort!.on('message', (texts: string[]) => {
  const results: PrepareResult[] = texts.map((text) => {
    const result = prepare(new JsonText(text))
    if (!result.ok) return result
    const { event: _event, ...rest } = result
    return rest
  })
  parentPort!.postMessage(results)
})
