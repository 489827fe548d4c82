/**
 * Counters and histograms for the request paths, kept as plain numbers in preallocated cells and
 * handed to prom-client only when Prometheus scrapes (`PromMetric`). prom-client's own
 * `observe(labels, v)` validates and hashes the label object on every call; at tens of thousands
 * of requests per second that is the cost we avoid: a request here does a few Map lookups on
 * values it already holds (no string is built) and adds to numbers in place.
 */

/** A metric as prom-client's Registry reads it (`registerMetric` takes any object of this shape). */
export interface PromMetric {
  readonly name: string
  readonly help: string
  readonly type: "counter" | "gauge" | "histogram"
  readonly aggregator: "sum"
  get(): Promise<PromValues> | PromValues
  reset(): void
}

export interface PromValues {
  readonly name: string
  readonly help: string
  readonly type: "counter" | "gauge" | "histogram"
  readonly aggregator: "sum"
  readonly values: ReadonlyArray<{ readonly labels: Record<string, string | number>; readonly value: number; readonly metricName?: string }>
}

/** Latency boundaries in seconds: sub-millisecond evaluations up to slow management writes. */
export const LATENCY_BUCKETS: ReadonlyArray<number> = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

/** One histogram series: non-cumulative bucket counts (the last is +Inf), their sum and count. */
export class HistogramCell {
  count = 0
  sum = 0
  readonly buckets: Float64Array
  constructor(private readonly bounds: ReadonlyArray<number>) {
    this.buckets = new Float64Array(bounds.length + 1)
  }
  observe(value: number): void {
    const bounds = this.bounds
    let i = 0
    // A linear scan: 14 bounds, and most requests stop in the first few.
    while (i < bounds.length && value > bounds[i]!) i++
    this.buckets[i]!++
    this.count++
    this.sum += value
  }
}

/** The `_bucket`, `_sum` and `_count` lines of one histogram series, buckets made cumulative. */
export const histogramValues = (
  name: string,
  bounds: ReadonlyArray<number>,
  labels: Record<string, string | number>,
  cell: { readonly buckets: ArrayLike<number>; readonly count: number; readonly sum: number },
  out: Array<PromValues["values"][number]>
): void => {
  let cumulative = 0
  for (let i = 0; i < bounds.length; i++) {
    cumulative += cell.buckets[i]!
    out.push({ metricName: `${name}_bucket`, labels: { ...labels, le: bounds[i]! }, value: cumulative })
  }
  out.push({ metricName: `${name}_bucket`, labels: { ...labels, le: "+Inf" }, value: cell.count })
  out.push({ metricName: `${name}_sum`, labels, value: cell.sum })
  out.push({ metricName: `${name}_count`, labels, value: cell.count })
}

/** A metric whose values are computed when scraped. */
export const promMetric = (
  name: string,
  type: PromMetric["type"],
  help: string,
  values: () => PromValues["values"] | Promise<PromValues["values"]>
): PromMetric => ({
  name,
  help,
  type,
  aggregator: "sum",
  get: () => {
    const v = values()
    return v instanceof Promise
      ? v.then((vs) => ({ name, help, type, aggregator: "sum" as const, values: vs }))
      : { name, help, type, aggregator: "sum" as const, values: v }
  },
  reset: () => {}
})
