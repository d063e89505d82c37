/** The checks of each family, as the mutants' runs use them (each run: one family or two, kept small). */
import { CHECKS, familyOf } from '../../../src/conformance/index.js'

const of = (...families: string[]) => CHECKS.filter((c) => families.includes(familyOf(c))).map((c) => c.id)

export const LOOKUP_CHECKS = of('shapes', 'lookups')
export const HTTP_CHECKS = of('http')
export const OPENAPI_CHECKS = of('openapi')
export const KEY_CHECKS = of('keys')
export const PLUGIN_CHECKS = of('plugins')
/** Search without search-complete (it writes 25 events: not on the shared base). */
export const SEARCH_CHECKS = of('search').filter((id) => id !== 'search-complete')
export const BULK_CHECKS = of('bulk')
export const RATE_CHECKS = [...of('rate-limit'), 'documented-headers']
export const HOOK_CHECKS = of('hooks')
export const LIVE_CHECKS = of('live')
export const LIFECYCLE_CHECKS = [...of('lifecycle'), 'key-required', 'search-complete']
