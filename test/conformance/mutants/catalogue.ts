/** Every mutant, the documented limits (mutants no check can kill, with the reason), and the kill table docs/conformance.md holds. */
import { type Mutant, mutantConfig, service } from './harness.js'
import { KEY_CHECKS, LOOKUP_CHECKS, RATE_CHECKS } from './families.js'
import { QUERY_MUTANTS } from './query-mutants.js'
import { READ_MUTANTS } from './read-mutants.js'
import { WRITE_MUTANTS } from './write-mutants.js'

export const MUTANTS: Mutant[] = [...READ_MUTANTS, ...QUERY_MUTANTS, ...WRITE_MUTANTS]

/** A mutant no check kills, and why none can. */
export type Limit = Mutant & { why: string }

export const LIMITS: Limit[] = [
  {
    id: 'no-rate-limit',
    layer: 'rate limiter',
    breaks: 'the anonymous plan is not limited at all',
    why: 'a black box cannot tell a server without a limit from one with a limit above the burst the suite sends (10 requests); the rate-limit checks are skipped, saying no 429 came',
    killedBy: [],
    checks: RATE_CHECKS,
    start: () => service({ config: mutantConfig(false) }),
  },
  {
    id: 'anonymous-subdomain-cap-lifted',
    layer: 'keys and plans',
    breaks: 'the anonymous plan’s cap of 10 subdomains is not applied',
    why: 'plans are the server’s configuration: the suite knows no plan’s caps, and the demo data has fewer than 10 subdomains per domain anyway',
    killedBy: [],
    checks: [...LOOKUP_CHECKS, ...KEY_CHECKS],
    start: () => {
      const config = mutantConfig()
      config.plans.anonymous.subdomains = null
      return service({ config })
    },
  },
]

const code = (ids: string[]) => ids.map((id) => `\`${id}\``).join(', ')

/** The kill table: one row per mutant, then one per documented limit. */
export function killTable(): string {
  const rows = MUTANTS.map((m) => `| \`${m.id}\` | ${m.layer} | ${m.breaks} | ${code(m.killedBy)} |`)
  const limits = LIMITS.map((m) => `| \`${m.id}\` | ${m.layer} | ${m.breaks} | none: ${m.why} |`)
  return ['| Mutant | Layer | What it breaks | Killed by |', '|---|---|---|---|', ...rows, ...limits].join('\n')
}
