/**
 * Entry point of a prepare worker thread (large ingests, see prepare-pool.ts): turns each
 * batch of JSON texts (or their UTF-8 bytes) it is sent into their prepare() results, in the
 * same order. The parsed event is left out of the answer (the store keeps the JSON; a
 * listener parses it when needed), and so is the JSON of a text kept as it came (most of a
 * bulk load): the main thread uses the text (and bytes) it already has. The answer is packed
 * (../store/prepare.ts, packAnswer).
 */
import { parentPort } from 'node:worker_threads'
import { batchTexts, JsonText, packAnswer, type PrepareBatch, prepare } from '../store/prepare.js'

parentPort!.on('message', (batch: PrepareBatch) => {
  const texts = batchTexts(batch)
  const answer = packAnswer(batch, texts, texts.map((text) => prepare(new JsonText(text))))
  // The batch's bytes go back as they came (moved): the store keeps the kept documents' bytes.
  parentPort!.postMessage(answer, answer.bytes.byteLength > 0 ? [answer.bytes.buffer as ArrayBuffer] : [])
})
