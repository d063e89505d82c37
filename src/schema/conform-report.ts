/** The JSON report of `l9kit conform --report json:FILE` (published as schema/conform-report.schema.json). */
import Type, { type Static } from 'typebox'
import { TIME_MILLIS } from './patterns.js'

const count = (title: string, description: string) => Type.Integer({ title, description, minimum: 0 })

export const CONFORM_STATUSES = ['passed', 'failed', 'skipped', 'error'] as const

export const ConformExample = Type.Object(
  {
    input: Type.Optional(Type.String({ title: 'Input', description: 'The smallest generated input that fails (fast-check notation), when the check generates inputs.' })),
    request: Type.Optional(Type.String({ title: 'Request', description: 'The request that shows the failure, e.g. `GET /host/192.0.2.1 (no api-key)`; keys are never written.' })),
    response: Type.Optional(Type.String({ title: 'Response', description: 'Status line, content-type and x-limited-for headers, and the start of the body.' })),
  },
  { title: 'Failing example', description: 'The smallest example of a failure.', additionalProperties: false },
)

export const ConformCheck = Type.Object(
  {
    id: Type.String({ title: 'Check id', description: 'Stable identifier, as given to --checks and --exclude-checks.', pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' }),
    description: Type.String({ title: 'Description', description: 'What the server must do, in one line.' }),
    spec: Type.String({ title: 'Specification section', description: 'Where the rule comes from.' }),
    status: Type.Union(
      [Type.Literal('passed'), Type.Literal('failed'), Type.Literal('skipped'), Type.Literal('error')],
      { title: 'Status', description: '`error`: the check could not run to the end (network failure, endless 429s).' },
    ),
    message: Type.Optional(Type.String({ title: 'Message', description: 'What failed, why the check was skipped or could not run, or what a pass judged.' })),
    example: Type.Optional(ConformExample),
    seed: Type.Integer({ title: 'Seed', description: 'The run seed; `--seed` with `--checks` replays this check.' }),
    path: Type.Optional(Type.String({ title: 'Replay path', description: "fast-check's path of the shrunk counterexample." })),
    replay: Type.Optional(Type.String({ title: 'Replay', description: 'The command that runs this check alone with the same seed (api keys left out).' })),
    requests: count('Requests', 'Requests this check sent (answers shared with earlier checks are not counted again).'),
    duration_ms: count('Duration', 'Milliseconds the check took.'),
  },
  { title: 'Check result', description: 'The outcome of one check.', additionalProperties: false },
)

export const ConformReport = Type.Object(
  {
    tool: Type.Literal('l9kit conform', { title: 'Tool', description: 'What wrote the report.' }),
    base_url: Type.String({ title: 'Base URL', description: 'The server judged.' }),
    seed: Type.Integer({ title: 'Seed', description: 'Seed of every generator of the run.' }),
    max_examples: Type.Integer({ title: 'Examples', description: 'Generated examples per check.', minimum: 1 }),
    rate: Type.String({ title: 'Rate', description: 'Requests per second, or `auto` (as fast as 429s allow).', pattern: '^(?:auto|[0-9]+(?:\\.[0-9]+)?/s)$' }),
    started_at: Type.String({ title: 'Started', description: 'UTC time the run started, millisecond precision.', pattern: TIME_MILLIS }),
    duration_ms: count('Duration', 'Milliseconds the whole run took.'),
    requests: count('Requests', 'Requests sent in the whole run.'),
    summary: Type.Object(
      {
        passed: count('Passed', 'Checks passed.'),
        failed: count('Failed', 'Checks failed.'),
        skipped: count('Skipped', 'Checks that had nothing to judge or were not enabled.'),
        errors: count('Errors', 'Checks that could not run to the end.'),
      },
      { title: 'Summary', description: 'Checks per status.', additionalProperties: false },
    ),
    checks: Type.Array(ConformCheck, { title: 'Checks', description: 'One entry per check run, in run order.' }),
    notes: Type.Optional(
      Type.Array(Type.String(), {
        title: 'Notes',
        description: 'What the run wrote to the server and what it left there (only with --allow-writes): the events deleted, or those that stay and why.',
      }),
    ),
  },
  { title: 'Conformance report', description: 'The result of `l9kit conform` against one server.', additionalProperties: false },
)

export type ConformReport = Static<typeof ConformReport>
export type ConformCheck = Static<typeof ConformCheck>
