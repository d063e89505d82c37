/**
 * Reading a streamed JSON Lines answer (the bulk export): the response's body read chunk by
 * chunk, split on newlines, each non-empty line parsed (and, when asked, validated) as it
 * arrives, so a long export never sits in memory whole. Breaking out of the loop cancels the
 * body, which closes the connection: the server stops its query.
 */
import type { DocumentName } from '../schema/index.js'
import { validateDocument } from '../validate/index.js'
import { ClientError } from './errors.js'
import type { RawResponse } from './http.js'

/** The documents of a JSON Lines body; `shape` validates each (undefined: not validated). */
export async function* jsonLines(response: RawResponse, stream: ReadableStream<Uint8Array>, shape: DocumentName | undefined): AsyncGenerator<unknown> {
  const reader = stream.getReader()
  const decoder = new TextDecoder('utf-8', { fatal: true })
  let rest = ''
  let line = 0
  const parse = (text: string): unknown => {
    line++
    let doc: unknown
    try {
      doc = JSON.parse(text)
    } catch {
      throw new ClientError('bad_body', `GET ${response.path}: line ${line} is not JSON`, { response })
    }
    if (shape === undefined) return doc
    const report = validateDocument(shape, doc)
    if (!report.ok) {
      const first = report.errors[0]!
      throw new ClientError('invalid_response', `GET ${response.path}: line ${line}: ${first.pointer || '(line)'}: ${first.message}`, { response, report })
    }
    return doc
  }
  let finished = false
  try {
    for (;;) {
      const { done, value } = await readOrFail(reader, response)
      if (done || value === undefined) break
      rest += decode(decoder, value, response)
      let from = 0
      for (let nl = rest.indexOf('\n'); nl !== -1; nl = rest.indexOf('\n', from)) {
        const text = rest.slice(from, nl)
        from = nl + 1
        if (text.trim() !== '') yield parse(text)
      }
      rest = rest.slice(from)
    }
    rest += decode(decoder, undefined, response)
    if (rest.trim() !== '') yield parse(rest)
    finished = true
  } finally {
    if (!finished) await reader.cancel().catch(() => {})
  }
}

async function readOrFail(reader: ReadableStreamDefaultReader<Uint8Array>, response: RawResponse): Promise<{ done: boolean; value?: Uint8Array }> {
  try {
    return await reader.read()
  } catch (error) {
    throw new ClientError('network', `GET ${response.path}: the answer broke off: ${(error as Error).message}`, { response, cause: error })
  }
}

function decode(decoder: InstanceType<typeof TextDecoder>, chunk: Uint8Array | undefined, response: RawResponse): string {
  try {
    return chunk === undefined ? decoder.decode() : decoder.decode(chunk, { stream: true })
  } catch {
    throw new ClientError('bad_body', `GET ${response.path}: the answer is not UTF-8`, { response })
  }
}
