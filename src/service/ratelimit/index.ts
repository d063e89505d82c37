export { formatGoDuration, formatMillis } from './go-duration.js'
export { type LimiterOptions, RateLimiter, type RateRule } from './token-bucket.js'
export { Slots, type SlotRefusal } from './slots.js'
export { DEFAULT_LIMITS, DEFAULT_PLAN_BUDGETS, LIVE_WINDOW_S, type PlanBudgets, type ServiceLimits } from './budgets.js'
