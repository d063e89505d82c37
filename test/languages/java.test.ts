/**
 * Java's java.util.regex with Matcher.find() (how Java's JSON Schema validators apply `pattern`)
 * against ECMA-262 on every schema pattern and corpus string: the same verdicts once the
 * printable-ASCII guard is applied; without it, `$` lets a final line terminator through. Runs
 * where a JDK is installed; CI does not install one, so there it is a named skip.
 */
import { join } from 'node:path'
import { beforeAll, expect, it } from 'vitest'
import { fileTempDir } from '../support/temp.js'
import { engineMatrix, LANGUAGES, needs, run, works } from './support.js'

const optional = true
needs('Java regex (java.util.regex)', works('javac', ['-version']) && works('java', ['-version']), 'a JDK (javac and java)', () => {
  const work = fileTempDir('l9kit-java-')
  beforeAll(async () => {
    const built = await run('javac', ['-d', work, join(LANGUAGES, 'java', 'Patterns.java')], { timeout: 180_000 })
    expect(built.stderr).toBe('')
    expect(built.code).toBe(0)
  }, 540_000)

  it('agrees with ECMA-262 on every schema pattern and corpus string', async () => {
    const { rawDifferences } = await engineMatrix('java', ['-cp', work, 'Patterns'])
    for (const end of ['\n', '\r', '\r\n', '\u0085', '\u2028', '\u2029']) expect(rawDifferences).toContain(JSON.stringify(`443${end}`))
  }, 180_000)
}, optional)
