/** The conformance suite: checks a lookup API server against the specification (see docs/conformance.md). */
export type { Check, CheckResult, CheckStatus, Problem, Verdict } from './check.js'
export { CHECKS } from './checks/index.js'
export { type Identity, SuiteContext, type SuiteOptions } from './context.js'
export { type RunHooks, runSuite, selectChecks, SuiteError, type SuiteReport } from './runner.js'
export { toJsonReport } from './report/json.js'
export { escapeXml, toJUnit } from './report/junit.js'
export { resultText, summaryText } from './report/text.js'
