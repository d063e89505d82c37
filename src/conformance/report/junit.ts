/**
 * The run as JUnit XML (the Ant/Jenkins dialect CI tools read): one <testsuite>, one
 * <testcase> per check, <failure>, <error> or <skipped> inside it.
 */
import type { CheckResult } from '../check.js'
import type { SuiteReport } from '../runner.js'

/** Characters XML 1.0 cannot carry at all (control characters, lone surrogates, U+FFFE/FFFF) become U+FFFD. */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu

export function escapeXml(text: string): string {
  return text
    .replace(NOT_XML, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
}

const attr = (name: string, value: string | number) => ` ${name}="${escapeXml(String(value))}"`
const seconds = (ms: number) => (ms / 1000).toFixed(3)

function details(r: CheckResult): string {
  const lines = [r.message ?? '', `specification: ${r.spec}`]
  if (r.example?.input !== undefined) lines.push(`smallest failing input: ${r.example.input}`)
  if (r.example?.request !== undefined) lines.push(`request: ${r.example.request}`)
  if (r.example?.response !== undefined) lines.push('response:', r.example.response)
  if (r.replay !== undefined) lines.push(`replay: ${r.replay}`)
  return lines.join('\n')
}

function testcase(r: CheckResult): string {
  const open = `    <testcase${attr('classname', 'l9kit.conform')}${attr('name', r.id)}${attr('time', seconds(r.durationMs))}`
  switch (r.status) {
    case 'passed':
      return `${open}/>`
    case 'skipped':
      return `${open}>\n      <skipped${attr('message', r.message ?? '')}/>\n    </testcase>`
    case 'failed':
      return `${open}>\n      <failure${attr('message', r.message ?? '')}${attr('type', r.id)}>${escapeXml(details(r))}</failure>\n    </testcase>`
    case 'error':
      return `${open}>\n      <error${attr('message', r.message ?? '')}${attr('type', 'suite')}>${escapeXml(details(r))}</error>\n    </testcase>`
  }
}

/** The XML document, UTF-8. */
export function toJUnit(report: SuiteReport): string {
  const { passed, failed, skipped, errors } = report.summary
  const tests = passed + failed + skipped + errors
  const suiteAttrs =
    attr('name', `l9kit conform ${report.baseUrl}`) +
    attr('tests', tests) +
    attr('failures', failed) +
    attr('errors', errors) +
    attr('skipped', skipped) +
    attr('time', seconds(report.durationMs)) +
    attr('timestamp', report.startedAt.replace(/\.\d+Z$/, ''))
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attr('name', 'l9kit conform')}${attr('tests', tests)}${attr('failures', failed)}${attr('errors', errors)}${attr('skipped', skipped)}${attr('time', seconds(report.durationMs))}>`,
    `  <testsuite${suiteAttrs}>`,
    '    <properties>',
    `      <property${attr('name', 'base_url')}${attr('value', report.baseUrl)}/>`,
    `      <property${attr('name', 'seed')}${attr('value', report.seed)}/>`,
    `      <property${attr('name', 'max_examples')}${attr('value', report.maxExamples)}/>`,
    `      <property${attr('name', 'rate')}${attr('value', report.rate)}/>`,
    '    </properties>',
    ...report.results.map(testcase),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n')
}
