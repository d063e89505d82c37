/**
 * `node --require ./natives-trace.cjs …`: at exit, writes node's own modules the process loaded
 * (its `process.moduleLoadList`: public and internal, however they were loaded) to the file
 * named by L9KIT_NATIVES_TRACE, one name a line (test/cli/start-budget.test.ts). CommonJS and
 * preloaded with --require, so that it starts no ES module loader, which would load the very
 * modules the test looks for.
 */
'use strict'
const out = process.env.L9KIT_NATIVES_TRACE
if (out) {
  process.on('exit', () => {
    const natives = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => `${m.slice('NativeModule '.length)}\n`)
    require('node:fs').writeFileSync(out, natives.join(''))
  })
}
