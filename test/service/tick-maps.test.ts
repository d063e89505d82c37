/**
 * nextTick's queue entries keep one hidden class through full garbage collections once the
 * HTTP layer is loaded (src/service/http/tick-maps.ts). Seen from V8's own report of nextTick's
 * inline caches (`%DebugPrint`), in fresh processes: one that loads the service and one that
 * does not (the same-run control, which shows the caches the keeper saves).
 */
import { spawnSync } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const serverUrl = new URL('../../src/service/http/server.ts', import.meta.url).href
const keeperUrl = new URL('../../src/service/http/tick-maps.ts', import.meta.url).href

/** The states of nextTick's property-definition caches after six full collections between bursts of ticks. */
function cacheStates(loadService: boolean): { states: string[]; kept: boolean } {
  const script = `
    ${loadService ? `await import(${JSON.stringify(serverUrl)})` : ''}
    const { tickObjectKept } = await import(${JSON.stringify(keeperUrl)})
    for (let round = 0; round < 6; round++) {
      for (let i = 0; i < 300; i++) await new Promise((resolve) => process.nextTick(resolve, i))
      globalThis.gc()
    }
    console.log('kept ' + tickObjectKept())
    new Function('f', 'return %DebugPrint(f)')(process.nextTick)
  `
  // tsx compiles the sources first: long on a busy machine, so a generous bound.
  // V8 prints the report itself, buffered: into a file, which it flushes whole at exit (a pipe lost its end).
  const dir = mkdtempSync(join(tmpdir(), 'l9kit-tick-maps-'))
  const out = openSync(join(dir, 'out'), 'w')
  try {
    const run = spawnSync(process.execPath, ['--expose-gc', '--allow-natives-syntax', '--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', out, 'pipe'],
      encoding: 'utf8',
      timeout: 240_000,
    })
    if (run.status !== 0) throw new Error(`the child failed: ${run.stderr}`)
  } finally {
    closeSync(out)
  }
  const stdout = readFileSync(join(dir, 'out'), 'utf8')
  rmSync(dir, { recursive: true, force: true })
  const states = [...stdout.matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((m) => m[1]!)
  return { states, kept: stdout.includes('kept true') }
}

describe('nextTick entries keep their class (tick-maps.ts)', { timeout: 300_000 }, () => {
  it('loading the HTTP layer keeps one entry, and nextTick never gives up on its class', (context) => {
    const control = cacheStates(false)
    if (!control.states.includes('MEGAMORPHIC')) {
      // Another Node: either no such report, or it does not drop the classes; nothing to compare.
      context.skip()
      return
    }
    expect(control.kept).toBe(false)
    const service = cacheStates(true)
    expect(service.kept).toBe(true)
    expect(service.states.length).toBe(control.states.length)
    expect(service.states).not.toContain('MEGAMORPHIC')
  })
})
