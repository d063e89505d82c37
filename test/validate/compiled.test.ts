/**
 * The ahead-of-time validators in src/validate/compiled are what `npm run generate` makes from
 * the current schemas (a stale copy would validate against an old schema), and they judge like
 * validators compiled at run time from the same documents.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'
import { validatorFiles } from '../../scripts/generate-validators.js'
import { DOCUMENT_NAMES, emptyEvent, schemaDocument } from '../../src/schema/index.js'
import { compiledValidator } from '../../src/validate/ajv.js'

const root = join(import.meta.dirname, '..', '..')

describe('ahead-of-time validators', () => {
  it('are current: regenerating gives the committed files byte for byte', () => {
    for (const file of validatorFiles()) expect(readFileSync(join(root, file.path), 'utf8'), file.path).toBe(file.text)
  })

  it('give the verdicts and errors of validators compiled at run time', () => {
    const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, unicodeRegExp: false })
    const event = emptyEvent()
    const samples: unknown[] = [event, { ...event, port: 80 }, { ...event, time: 'yesterday', ip: 1 }, {}, [], null, 'x', { Services: null, Leaks: null }]
    for (const name of DOCUMENT_NAMES) {
      const runtime = ajv.compile(schemaDocument(name))
      for (const sample of samples) {
        const ok = runtime(sample)
        expect(compiledValidator(name)(sample), name).toBe(ok)
        const strip = (errors: typeof runtime.errors) => (errors ?? []).map(({ instancePath, schemaPath, keyword, params, data }) => ({ instancePath, schemaPath, keyword, params, data }))
        expect(strip(compiledValidator(name).errors), name).toEqual(strip(runtime.errors))
      }
    }
  })
})
