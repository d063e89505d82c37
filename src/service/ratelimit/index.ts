export { formatGoDuration, formatMillis } from './go-duration.js'
export { type LimiterOptions, RateLimiter, type RateRule } from './token-bucket.js'
