/** The part of autocannon's API the soak script uses (the package ships no types). */
declare module 'autocannon' {
  namespace autocannon {
    interface Request {
      method?: string
      path?: string
      headers?: Record<string, string>
      setupRequest?: (req: Request) => Request
    }
    interface Options {
      url: string
      connections?: number
      duration?: number
      requests?: Request[]
    }
    interface Histogram {
      average: number
      p50: number
      p99: number
      max: number
      total: number
    }
    interface Result {
      requests: Histogram
      latency: Histogram
      errors: number
      timeouts: number
      '2xx': number
      '4xx': number
      '5xx': number
    }
  }
  function autocannon(options: autocannon.Options, done: (error: Error | null, result: autocannon.Result) => void): unknown
  export default autocannon
}
