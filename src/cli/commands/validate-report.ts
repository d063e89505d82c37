/**
 * `validate --format junit|sarif`: the report as one document for CI, built from the records
 * the json format writes (one `{file, line, errors, warnings}` object per record with
 * something to say), so `--jobs` workers need no format of their own.
 *
 * - SARIF 2.1.0 (GitHub code scanning and other SARIF viewers): one run, one result per
 *   problem, its rule the issue code, its location the file and line, the JSON pointer as a
 *   logical location.
 * - JUnit XML (the Ant/Jenkins dialect test reporters read): one `<testsuite>` per input, one
 *   `<testcase>` per record with a problem (a `<failure>` per invalid record; a record with
 *   warnings only passes, its warnings in `<system-out>`), one failed test case standing for the
 *   input's invalid records `--max-errors` left out (so an input with an invalid record always
 *   fails, whatever the limit), and one passing test case standing for the input's valid
 *   documents (none when it has none, unless the input is empty).
 */
import type { Issue } from '../../validate/issue.js'
import { escapeXml } from '../../conformance/report/junit.js'
import type { LineSink } from '../parallel/run.js'

import { VERSION } from '../version.js'

/** One record as the json format writes it. */
interface RecordReport {
  file: string
  line: number
  errors: Issue[]
  warnings: Issue[]
}

/** What the summary says, per input and in all. */
export interface Counts {
  valid: number
  invalid: number
}

/** Collects the json format's lines (one record each) for a report written at the end. */
export class ReportCollector implements LineSink {
  readonly records: RecordReport[] = []
  private partial = ''

  write(text: string): undefined {
    for (const line of text.split('\n')) this.take(line)
    return undefined
  }

  writeBytes(bytes: Uint8Array, written?: () => void): undefined {
    const text = this.partial + Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')
    written?.()
    const lines = text.split('\n')
    this.partial = lines.pop()!
    for (const line of lines) this.take(line)
    return undefined
  }

  private take(line: string): void {
    if (line !== '') this.records.push(JSON.parse(line) as RecordReport)
  }
}

/** The rule of an issue code, for SARIF's rule list. */
const RULES: Record<string, string> = {
  missing_member: 'A member the profile requires is missing',
  wrong_type: 'A member has the wrong JSON type',
  bad_timestamp: 'A time is not in the form the profile requires',
  bad_fingerprint: 'A fingerprint is not 64 hexadecimal characters',
  bad_port: 'A port is not a decimal number 0-65535',
  bad_base64: 'Bytes are not standard base64 text',
  bad_number: 'A number is not written as the profile requires',
  out_of_range: 'A number is out of its range',
  unknown_member: 'A member the schema does not list',
  unknown_value: 'A value outside the known list',
  bad_json: 'The record is not valid JSON',
  not_object: 'The document is not a JSON object',
  line_too_long: 'The line is longer than --max-line-bytes',
  bad_utf8: 'The record holds bytes that are not UTF-8',
  too_deep: 'The document is nested too deeply',
  internal_error: 'l9kit failed on this record',
  invalid: 'The document does not match the schema',
}

/** The SARIF 2.1.0 log, as text. */
export function sarifReport(records: readonly RecordReport[], notShown: number, maxErrors: number | undefined): string {
  const codes = new Set<string>()
  const results: unknown[] = []
  for (const record of records) {
    for (const [level, issues] of [['error', record.errors], ['warning', record.warnings]] as const) {
      for (const issue of issues) {
        codes.add(issue.code)
        results.push({
          ruleId: issue.code,
          level,
          message: { text: `${issue.pointer === '' ? '(document)' : issue.pointer}: ${issue.message}` },
          locations: [
            {
              physicalLocation: { artifactLocation: { uri: artifactUri(record.file) }, region: { startLine: record.line } },
              ...(issue.pointer === '' ? {} : { logicalLocations: [{ fullyQualifiedName: issue.pointer, kind: 'member' }] }),
            },
          ],
        })
      }
    }
  }
  const rules = [...codes].sort().map((id) => ({ id, shortDescription: { text: RULES[id] ?? id } }))
  const notifications =
    notShown === 0 ? [] : [{ level: 'note', message: { text: `${notShown} more records with problems not shown (--max-errors ${maxErrors})` } }]
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'l9kit', version: VERSION, rules } },
        invocations: [{ executionSuccessful: true, toolExecutionNotifications: notifications }],
        results,
      },
    ],
  }
  return `${JSON.stringify(log, null, 2)}\n`
}

/** A file name as a SARIF artifact URI: relative paths stay relative (code scanning resolves them against the repository). */
function artifactUri(file: string): string {
  if (file === '<stdin>') return 'stdin'
  return file.split('/').map(encodeURIComponent).join('/')
}

const attr = (name: string, value: string | number) => ` ${name}="${escapeXml(String(value))}"`

const issueText = (record: RecordReport, issue: Issue, prefix = '') => `${record.file}:${record.line}: ${issue.pointer === '' ? '(document)' : issue.pointer}: ${prefix}${issue.message}`

/** The JUnit XML document, as text; `perFile` gives each input's counts, in input order. */
export function junitReport(records: readonly RecordReport[], perFile: ReadonlyMap<string, Counts>, notShown: number, maxErrors: number | undefined): string {
  const byFile = new Map<string, RecordReport[]>()
  for (const file of perFile.keys()) byFile.set(file, [])
  for (const record of records) byFile.get(record.file)?.push(record) ?? byFile.set(record.file, [record])
  const suites: string[] = []
  let tests = 0
  let failures = 0
  for (const [file, list] of byFile) {
    const counts = perFile.get(file) ?? { valid: 0, invalid: 0 }
    const cases: string[] = []
    let failed = 0
    for (const record of list) {
      const open = `    <testcase${attr('classname', `l9kit.validate.${file}`)}${attr('name', `${file}:${record.line}`)}`
      const warnings = record.warnings.map((w) => issueText(record, w, 'warning: ')).join('\n')
      if (record.errors.length === 0) {
        cases.push(`${open}>\n      <system-out>${escapeXml(warnings)}</system-out>\n    </testcase>`)
        continue
      }
      failed++
      const first = record.errors[0]!
      const body = [...record.errors.map((e) => issueText(record, e)), ...(warnings === '' ? [] : [warnings])].join('\n')
      cases.push(`${open}>\n      <failure${attr('message', issueText(record, first))}${attr('type', first.code)}>${escapeXml(body)}</failure>\n    </testcase>`)
    }
    // Invalid records --max-errors held back still fail: one failed case stands for them all.
    const heldBack = counts.invalid - failed
    if (heldBack > 0) {
      failed++
      const text = `${file}: ${heldBack} more invalid ${heldBack === 1 ? 'record' : 'records'} not shown (--max-errors ${maxErrors})`
      cases.push(`    <testcase${attr('classname', `l9kit.validate.${file}`)}${attr('name', text)}>\n      <failure${attr('message', text)}${attr('type', 'not_shown')}>${escapeXml(text)}</failure>\n    </testcase>`)
    }
    // A passing case for the valid documents; one for an empty input too, so its suite is not empty.
    const validOnes = counts.valid - list.filter((r) => r.errors.length === 0).length
    if (validOnes > 0 || cases.length === 0) {
      cases.push(`    <testcase${attr('classname', `l9kit.validate.${file}`)}${attr('name', `${file}: ${validOnes} valid ${validOnes === 1 ? 'document' : 'documents'}`)}/>`)
    }
    tests += cases.length
    failures += failed
    const last = suites.length === byFile.size - 1
    // The note on records left out (--max-errors) goes with the last input, where they were counted last.
    const note = last && notShown > 0 ? [`    <system-out>${escapeXml(`${notShown} more records with problems not shown (--max-errors ${maxErrors})`)}</system-out>`] : []
    suites.push(
      [`  <testsuite${attr('name', file)}${attr('tests', cases.length)}${attr('failures', failed)}${attr('errors', 0)}${attr('skipped', 0)}>`, ...cases, ...note, '  </testsuite>'].join('\n'),
    )
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attr('name', 'l9kit validate')}${attr('tests', tests)}${attr('failures', failures)}${attr('errors', 0)}>`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n')
}
