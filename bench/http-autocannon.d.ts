// Minimal types for autocannon (no @types package is installed), as bench/http.bench.ts uses it.
declare module "autocannon" {
  interface Options {
    url: string
    connections?: number
    duration?: number
    /** Requests per second over all connections (paced load). */
    overallRate?: number
    method?: string
    headers?: Record<string, string>
    body?: string
    /** Each connection sends these in order, then starts over. */
    requests?: ReadonlyArray<RequestSpec>
  }
  interface RequestSpec {
    method?: string
    path?: string
    headers?: Record<string, string>
    body?: string
    setupRequest?: (request: { path: string; body?: string }) => { path: string; body?: string }
    onResponse?: (status: number, body: string) => void
  }
  interface Histogram {
    average: number
    p99: number
    total: number
  }
  interface Result {
    requests: Histogram
    latency: Histogram
    errors: number
    timeouts: number
    non2xx: number
  }
  function autocannon(options: Options): Promise<Result>
  export default autocannon
}
