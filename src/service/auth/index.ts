export { type ApiKey, digest, KeyRing, tokenMatches } from './keys.js'
export { DEFAULT_PLANS, KEY_PLANS, type KeyPlan, type Plan, type PlanName, PLAN_NAMES } from './plans.js'
