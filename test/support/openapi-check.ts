/**
 * Judging an actual HTTP answer against its operation in schema/openapi.json, the way a
 * validating proxy does: the status must be documented (or fall under `2XX`/`default`), the
 * content type one of the documented media types, the body valid against that media type's
 * schema, every required header present and valid, and the reason phrase the one the document
 * names (`x-reason-phrase`). Schemas are compiled with ajv from the published file.
 */
import { readFileSync } from 'node:fs'
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'

export interface ActualAnswer {
  status: number
  statusMessage: string
  headers: Record<string, string | string[] | undefined>
  text: string
}

type Json = Record<string, any>

export class OpenApiJudge {
  readonly doc: Json
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true })
  private readonly compiled = new Map<string, ValidateFunction>()
  /** `METHOD path status` of every answer judged, for the coverage check. */
  readonly seen = new Set<string>()

  constructor(file: string) {
    this.doc = JSON.parse(readFileSync(file, 'utf8')) as Json
    addFormats.default(this.ajv)
    this.ajv.addSchema({ $id: 'https://l9kit.test/openapi', components: this.doc.components })
  }

  /** The problems of `answer` as an answer of `method path` (a path template of the document); [] when it conforms. */
  judge(method: string, path: string, answer: ActualAnswer): string[] {
    const op = this.doc.paths[path]?.[method.toLowerCase()] as Json | undefined
    if (op === undefined) return [`${method} ${path} is not an operation of the document`]
    const status = String(answer.status)
    const key = status in op.responses ? status : `${status[0]}XX` in op.responses ? `${status[0]}XX` : 'default' in op.responses ? 'default' : undefined
    if (key === undefined) return [`${method} ${path}: status ${status} is not documented (documented: ${Object.keys(op.responses).join(', ')})`]
    this.seen.add(`${method.toUpperCase()} ${path} ${key}`)
    const response = this.deref(op.responses[key]) as Json
    const where = `${method} ${path} ${status}`
    const problems: string[] = []
    if (response['x-reason-phrase'] !== undefined && answer.statusMessage !== response['x-reason-phrase']) {
      problems.push(`${where}: reason phrase ${JSON.stringify(answer.statusMessage)}, documented ${JSON.stringify(response['x-reason-phrase'])}`)
    }
    for (const [name, header] of Object.entries((response.headers ?? {}) as Json)) {
      const spec = this.deref(header) as Json
      const value = answer.headers[name.toLowerCase()]
      if (value === undefined) {
        if (spec.required) problems.push(`${where}: header ${name} is missing`)
        continue
      }
      if (spec.schema && !this.validator(spec.schema)(String(value))) problems.push(`${where}: header ${name}: ${JSON.stringify(value)} breaks its schema`)
    }
    problems.push(...this.judgeBody(where, response, answer))
    return problems
  }

  /** The problems of a request the service sent to a hook, as the document's webhook `name` describes it. */
  judgeWebhook(name: string, headers: Record<string, string | string[] | undefined>, body: string): string[] {
    const op = this.doc.webhooks?.[name]?.post as Json | undefined
    if (op === undefined) return [`webhook ${name} is not in the document`]
    const problems: string[] = []
    for (const param of (op.parameters ?? []) as Json[]) {
      if (param.in !== 'header') continue
      const value = headers[String(param.name).toLowerCase()]
      if (value === undefined) {
        if (param.required) problems.push(`webhook ${name}: header ${param.name} is missing`)
      } else if (param.schema && !this.validator(param.schema)(String(value))) problems.push(`webhook ${name}: header ${param.name}: ${JSON.stringify(value)} breaks its schema`)
    }
    const essence = String(headers['content-type'] ?? '').split(';')[0]!.trim()
    const media = (op.requestBody?.content ?? {})[essence] as Json | undefined
    if (media === undefined) return [...problems, `webhook ${name}: content-type ${JSON.stringify(headers['content-type'])} is not documented`]
    const validate = this.validator(media.schema)
    if (!validate(JSON.parse(body))) problems.push(`webhook ${name}: body breaks its schema: ${JSON.stringify(validate.errors?.slice(0, 2))}`)
    return problems
  }

  private judgeBody(where: string, response: Json, answer: ActualAnswer): string[] {
    const contentType = String(answer.headers['content-type'] ?? '')
    if (response.content === undefined) {
      return answer.text === '' ? [] : [`${where}: a body (${contentType}) where the document promises none`]
    }
    const essence = contentType.split(';')[0]!.trim().toLowerCase()
    const media = Object.entries(response.content as Json).find(([type]) => type.split(';')[0]!.trim().toLowerCase() === essence)
    if (media === undefined) return [`${where}: content-type ${JSON.stringify(contentType)} is not documented (${Object.keys(response.content).join(', ')})`]
    const [type, spec] = media as [string, Json]
    if (!spec.schema) return []
    let body: unknown = answer.text
    if (type === 'application/x-ndjson') {
      // JSON Lines: the schema is each line's (docs/service.md, "Bulk export").
      const validate = this.validator(spec.schema)
      const lines = answer.text.split('\n').filter((l) => l !== '')
      for (const [i, line] of lines.entries()) {
        let doc: unknown
        try {
          doc = JSON.parse(line)
        } catch {
          return [`${where}: line ${i + 1} is not JSON`]
        }
        if (!validate(doc)) return [`${where}: line ${i + 1} breaks the ${type} schema: ${(validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath} ${e.message}`).join('; ')}`]
      }
      return lines.length > 0 ? [] : [`${where}: no line`]
    }
    if (type.includes('json')) {
      try {
        body = JSON.parse(answer.text)
      } catch {
        return [`${where}: the body is not JSON`]
      }
    }
    const validate = this.validator(spec.schema)
    if (validate(body)) return []
    return [`${where}: body breaks the ${type} schema: ${(validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath} ${e.message}`).join('; ')}`]
  }

  private validator(schema: unknown): ValidateFunction {
    const text = JSON.stringify(schema).replace(/"#\/components\//g, '"https://l9kit.test/openapi#/components/')
    let validate = this.compiled.get(text)
    if (!validate) {
      validate = this.ajv.compile(JSON.parse(text) as object)
      this.compiled.set(text, validate)
    }
    return validate
  }

  private deref(node: unknown): unknown {
    const ref = (node as Json | undefined)?.$ref
    if (typeof ref !== 'string') return node
    return ref.slice(2).split('/').reduce((at: Json, part) => at[part], this.doc)
  }

  /** Every `METHOD path status` the document lists for its operations. */
  documented(): string[] {
    const out: string[] = []
    for (const [path, item] of Object.entries(this.doc.paths as Json)) {
      for (const [method, op] of Object.entries(item as Json)) {
        if (method === 'parameters') continue
        for (const status of Object.keys((op as Json).responses)) out.push(`${method.toUpperCase()} ${path} ${status}`)
      }
    }
    return out
  }
}
