/** What `l9kit conform` prints: one line per check, details under a failure, the closing count. */
import type { CheckResult } from '../check.js'
import type { SuiteReport } from '../runner.js'

const LABEL = { passed: 'PASS', failed: 'FAIL', skipped: 'SKIP', error: 'ERROR' } as const

const indent = (text: string, by = '      ') => text.split('\n').map((l) => (l === '' ? '' : by + l)).join('\n')

/** The lines for one finished check. */
export function resultText(r: CheckResult): string {
  const head = `${LABEL[r.status].padEnd(5)} ${r.id}: ${r.description}`
  if (r.status === 'passed') return r.message ? `${head} (${r.message})` : head
  const lines = [head, indent(r.message ?? '')]
  if (r.status === 'failed' || r.status === 'error') {
    lines.push(indent(`specification: ${r.spec}`))
    if (r.example?.input !== undefined) lines.push(indent(`smallest failing input: ${r.example.input}`))
    if (r.example?.request !== undefined) lines.push(indent(`request: ${r.example.request}`))
    if (r.example?.response !== undefined) lines.push(indent('response:'), indent(r.example.response, '        '))
    if (r.replay !== undefined) lines.push(indent(`replay: ${r.replay}`))
  }
  return lines.join('\n')
}

/** `N passed, M failed` (errors count as failed; skipped named when any). */
export function summaryText(report: SuiteReport): string {
  const { passed, failed, skipped, errors } = report.summary
  const parts = [`${passed} passed`, `${failed + errors} failed`]
  if (skipped > 0) parts.push(`${skipped} skipped`)
  return `${parts.join(', ')} (${report.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s, seed ${report.seed})`
}
