/** The shape every conformance check has, and what running one gives. */
import type { RawResponse } from '../client/index.js'
import type { SuiteContext } from './context.js'

/** One way a server departs from the specification, found with the request that shows it. */
export interface Problem {
  /** One line: what is wrong. */
  message: string
  /** The answer that shows it, when there is one. */
  response?: RawResponse
}

export type Verdict =
  | { status: 'passed'; /** What was judged, e.g. `12 responses, 30 events`. */ note?: string }
  | { status: 'failed'; problem: Problem; /** The smallest failing generated input, as text. */ input?: string; path?: string }
  | { status: 'skipped'; reason: string }

export interface Check {
  /** Stable identifier, used by `--checks` and `--exclude-checks` and in reports. */
  id: string
  /** One line: what the server must do. */
  description: string
  /** The section of docs/specification.md it enforces (LeakIX's API: … for its second part), or the document of our choice where it is silent (docs/hooks.md, …). */
  spec: string
  /** Its family (families.ts); absent: found from the id (`search-…` is search, …). */
  family?: string
  /** The check writes to the server: it runs only with `--allow-writes` (the runner's summary lists them). */
  writes?: boolean
  /**
   * Why a server without state (a mock that answers each operation with a fixed example) cannot
   * pass it; `--stateless` skips the check with this reason. Absent: such a server can pass it.
   */
  needsState?: string
  /** Runs against the server; throws only when the check could not run at all. */
  run(ctx: SuiteContext): Promise<Verdict>
}

export type CheckStatus = 'passed' | 'failed' | 'skipped' | 'error'

/** What the runner reports for one check. */
export interface CheckResult {
  id: string
  description: string
  spec: string
  status: CheckStatus
  /** Why it failed, was skipped or could not run; or what was judged when it passed. */
  message?: string
  /** The smallest failing example. */
  example?: {
    /** The generated input fast-check shrank to, when the check generates inputs. */
    input?: string
    /** `GET /host/… (api-key: wrong)` */
    request?: string
    /** Status line, telling headers and the start of the body. */
    response?: string
  }
  /** Seed of this check's generator (replay with `--seed`). */
  seed: number
  /** fast-check's replay path of the counterexample. */
  path?: string
  /** The command that runs this check alone with the same seed (keys left out). */
  replay?: string
  requests: number
  durationMs: number
}

export const pass = (note?: string): Verdict => (note === undefined ? { status: 'passed' } : { status: 'passed', note })
export const fail = (problem: Problem, input?: string, path?: string): Verdict => ({ status: 'failed', problem, ...(input === undefined ? {} : { input }), ...(path === undefined ? {} : { path }) })
export const skip = (reason: string): Verdict => ({ status: 'skipped', reason })
