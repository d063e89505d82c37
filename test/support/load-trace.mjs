/**
 * `node --import ./load-trace.mjs …`: appends every module the process loads to the file named
 * by L9KIT_LOAD_TRACE, one `esm <url>` or `cjs <path>` line each (test/cli/start-budget.test.ts).
 * ES modules are seen by a loader hook (module.register: every `import`, static or dynamic,
 * from files or built-ins); CommonJS files by the CommonJS loader's compile step (what
 * `require` and createRequire load, which no ES loader hook sees in Node 20); the one-file
 * builds of dist/fast/, which src/cli/fast/cached-script.ts compiles with vm.Script to give V8
 * their code cache, as `vm <path>` lines.
 */
import { appendFileSync } from 'node:fs'
import { Module, register } from 'node:module'
import vm from 'node:vm'

const out = process.env.L9KIT_LOAD_TRACE
if (out) {
  const hook = `import { appendFileSync } from 'node:fs'
export async function load(url, context, next) {
  appendFileSync(${JSON.stringify(out)}, 'esm ' + url + '\\n')
  return next(url, context)
}`
  register(`data:text/javascript,${encodeURIComponent(hook)}`)
  const compile = Module.prototype._compile
  Module.prototype._compile = function (content, filename) {
    appendFileSync(out, `cjs ${filename}\n`)
    return compile.call(this, content, filename)
  }
  const Script = vm.Script
  vm.Script = class TracedScript extends Script {
    constructor(code, options) {
      super(code, options)
      if (typeof options?.filename === 'string') appendFileSync(out, `vm  ${options.filename}\n`)
    }
  }
}
