import { readFileSync } from 'node:fs'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'
import { DOCUMENT_NAMES, DOCUMENT_SPECS, openApiDocument, schemaDocument } from '../../src/schema/index.js'

const refs = (node: unknown, out: string[] = []): string[] => {
  if (Array.isArray(node)) node.forEach((n) => refs(n, out))
  else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref') out.push(String(value))
      else refs(value, out)
    }
  }
  return out
}

describe.each(DOCUMENT_NAMES)('schema document %s', (name) => {
  const doc = schemaDocument(name)

  it('is a draft 2020-12 document with $id, title and description', () => {
    expect(doc).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', $id: expect.stringContaining(DOCUMENT_SPECS[name].file) })
    expect(typeof doc.title).toBe('string')
    expect(typeof doc.description).toBe('string')
    expect(new Ajv2020({ strict: true }).validateSchema(doc)).toBe(true)
  })

  it('resolves every $ref to one of its own $defs', () => {
    const defs = Object.keys((doc.$defs ?? {}) as object)
    for (const ref of refs(doc)) expect(defs).toContain(ref.replace('#/$defs/', ''))
  })

  it('uses no draft-07 tuple form', () => {
    expect(JSON.stringify(doc)).not.toMatch(/"items":\[|"additionalItems"/)
  })

  it('is the committed file under schema/', () => {
    const committed = JSON.parse(readFileSync(new URL(`../../schema/${DOCUMENT_SPECS[name].file}`, import.meta.url), 'utf8'))
    expect(committed).toEqual(doc)
  })
})

describe('event schema parts', () => {
  it('has a $defs entry for every part the specification lists', () => {
    expect(Object.keys(schemaDocument('event').$defs as object)).toEqual([
      'http', 'ssl', 'certificate', 'ssh', 'service', 'credentials', 'software', 'module', 'leak', 'dataset', 'geoip', 'location', 'network',
      // The protocol objects of the format owner's current model, in the facts' table order.
      'vnc', 'ftp', 'smtp', 'telnet', 'redis', 'mysql', 'postgresql', 'mongodb', 'memcached', 'amqp', 'ldap', 'sip', 'rdp', 'dns', 'rtsp',
    ])
  })

  it('gives every field a title and a description', () => {
    const missing: string[] = []
    const walk = (node: Record<string, any>, path: string) => {
      for (const [name, prop] of Object.entries((node.properties ?? {}) as Record<string, any>)) {
        if (!prop.$ref && (!prop.title || !prop.description)) missing.push(`${path}/${name}`)
      }
    }
    const doc = schemaDocument('event') as Record<string, any>
    walk(doc, '')
    for (const [name, def] of Object.entries(doc.$defs as Record<string, any>)) walk(def, `#${name}`)
    expect(missing).toEqual([])
  })
})

describe('OpenAPI document', () => {
  const api = openApiDocument() as Record<string, any>
  it('is OpenAPI 3.1 with the three lookups and the alert webhook', () => {
    expect(api.openapi).toBe('3.1.0')
    expect(Object.keys(api.paths)).toEqual(expect.arrayContaining(['/domain/{domain}', '/host/{ip}', '/api/subdomains/{domain}']))
    expect(api.webhooks.alert.post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/event' })
    expect(api.paths['/host/{ip}'].get.responses['429'].headers['x-limited-for']).toBeDefined()
  })

  it('resolves every $ref inside components', () => {
    for (const ref of refs(api)) {
      const [, , kind, name] = ref.split('/') as [string, string, string, string]
      expect(Object.keys(api.components[kind] ?? {}), ref).toContain(name)
    }
  })

  it('is the committed schema/openapi.json', () => {
    expect(JSON.parse(readFileSync(new URL('../../schema/openapi.json', import.meta.url), 'utf8'))).toEqual(api)
  })
})
