/** The run as the JSON report (schema/conform-report.schema.json). */
import type { ConformReport } from '../../schema/conform-report.js'
import type { SuiteReport } from '../runner.js'

export function toJsonReport(report: SuiteReport): ConformReport {
  return {
    tool: 'l9kit conform',
    base_url: report.baseUrl,
    seed: report.seed,
    max_examples: report.maxExamples,
    rate: report.rate,
    started_at: report.startedAt,
    duration_ms: report.durationMs,
    requests: report.requests,
    summary: report.summary,
    checks: report.results.map((r) => ({
      id: r.id,
      description: r.description,
      spec: r.spec,
      status: r.status,
      ...(r.message === undefined ? {} : { message: r.message }),
      ...(r.example === undefined ? {} : { example: r.example }),
      seed: r.seed,
      ...(r.path === undefined ? {} : { path: r.path }),
      ...(r.replay === undefined ? {} : { replay: r.replay }),
      requests: r.requests,
      duration_ms: r.durationMs,
    })),
    ...(report.notes.length === 0 ? {} : { notes: report.notes }),
  }
}
