/**
 * The examples shown in docs/format.md and schema/openapi.json: every example event is strict-valid,
 * every part example validates against its `$defs` entry, and the generated docs are current.
 */
import { readFileSync } from 'node:fs'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'
import { renderApiDoc } from '../../scripts/api-doc.js'
import {
  examplePartValues,
  exampleLeakEvent,
  exampleProtocolEvent,
  exampleServiceEvent,
  exampleSshEvent,
  openApiDocument,
  schemaDocument,
} from '../../src/schema/index.js'
import { validate } from '../../src/validate/index.js'

const root = new URL('../..', import.meta.url).pathname

describe('examples', () => {
  it.each([
    ['service', exampleServiceEvent()],
    ['leak', exampleLeakEvent()],
    ['ssh', exampleSshEvent()],
    ['every protocol object', exampleProtocolEvent()],
  ])('the %s example event is strict-valid without warnings', (_name, event) => {
    expect(validate(event, { profile: 'strict' })).toMatchObject({ ok: true, errors: [], warnings: [] })
  })

  it('gives an example for every part, valid against the part’s definition', () => {
    const doc = schemaDocument('event') as { $id: string; $defs: Record<string, object> }
    const parts = examplePartValues()
    expect(Object.keys(parts).sort()).toEqual(Object.keys(doc.$defs).sort())
    const ajv = new Ajv2020({ strict: false })
    ajv.addSchema(doc)
    for (const [name, value] of Object.entries(parts)) {
      const check = ajv.getSchema(`${doc.$id}#/$defs/${name}`)!
      expect(check(value), `${name}: ${JSON.stringify(check.errors)}`).toBe(true)
    }
    // Not vacuous: a part example off its schema fails.
    expect(ajv.getSchema(`${doc.$id}#/$defs/location`)!({ lat: 'north', lon: 0 })).toBe(false)
  })

  it('docs/api.md is what npm run generate makes of the OpenAPI document', () => {
    expect(readFileSync(`${root}docs/api.md`, 'utf8')).toBe(renderApiDoc(openApiDocument()))
  })

  it('docs/format.md shows an example under every part', () => {
    const text = readFileSync(`${root}docs/format.md`, 'utf8')
    for (const name of Object.keys(examplePartValues())) expect(text).toMatch(new RegExp(`## \`${name}\`[\\s\\S]*?Example:\\n\\n\`\`\`json`))
  })
})
