// Minimal types for autocannon (no @types package is installed), as bench/http.bench.ts uses it.
declare module "autocannon" {
  interface Options {
    url: string
    connections?: number
    duration?: number
    method?: string
    headers?: Record<string, string>
    body?: string
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
    non2xx: number
  }
  function autocannon(options: Options): Promise<Result>
  export default autocannon
}
