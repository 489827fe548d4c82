/**
 * Effect metrics (the core's, src/services/operations/ServiceMetrics.ts, and the adapters', Instruments.ts)
 * as prom-client metrics: one prom-client metric per Effect metric name, read from Effect's
 * registry when Prometheus scrapes. Effect tags become labels. Only the metrics named here are
 * exported, so nothing else a process registers with Effect leaks into /metrics.
 */
import * as Metric from "effect/Metric"
import type * as MetricKey from "effect/MetricKey"
import * as MetricKeyType from "effect/MetricKeyType"
import type * as MetricPair from "effect/MetricPair"
import * as MetricState from "effect/MetricState"
import * as Option from "effect/Option"
import { histogramValues, promMetric, type PromMetric, type PromValues } from "./Cells.js"

const typeOf = (key: MetricKey.MetricKey.Untyped): PromMetric["type"] | undefined =>
  MetricKeyType.isCounterKey(key.keyType)
    ? "counter"
    : MetricKeyType.isGaugeKey(key.keyType)
    ? "gauge"
    : MetricKeyType.isHistogramKey(key.keyType)
    ? "histogram"
    : undefined

const labelsOf = (key: MetricKey.MetricKey.Untyped): Record<string, string> => {
  const labels: Record<string, string> = {}
  for (const tag of key.tags) labels[tag.key] = tag.value
  return labels
}

const valuesOf = (name: string, pairs: ReadonlyArray<MetricPair.MetricPair.Untyped>): PromValues["values"] => {
  const out: Array<PromValues["values"][number]> = []
  for (const { metricKey, metricState } of pairs) {
    if (metricKey.name !== name) continue
    const labels = labelsOf(metricKey)
    if (MetricState.isCounterState(metricState)) out.push({ labels, value: Number(metricState.count) })
    else if (MetricState.isGaugeState(metricState)) out.push({ labels, value: Number(metricState.value) })
    else if (MetricState.isHistogramState(metricState)) {
      // Effect's buckets are cumulative and end with +Inf, which histogramValues adds itself.
      const finite = metricState.buckets.filter(([bound]) => Number.isFinite(bound))
      const bounds = finite.map(([bound]) => bound)
      const perBucket = finite.map(([, cumulative], i) => cumulative - (i === 0 ? 0 : finite[i - 1]![1]))
      histogramValues(name, bounds, labels, { buckets: perBucket, count: metricState.count, sum: metricState.sum }, out)
    }
  }
  return out
}

/**
 * Touches each metric once, so that its series exist (at zero) before the first event: an alert
 * on a rate needs the series to be there.
 */
export const declare = (metrics: ReadonlyArray<Metric.Metric<any, any, any>>): void => {
  for (const metric of metrics) metric.unsafeValue([])
}

/**
 * The Effect metrics whose names start with `prefix`, as prom-client metrics, read now. Built per
 * scrape: Effect registers a metric on first use, so the set is known only then.
 */
export const effectMetrics = (prefix: string): ReadonlyArray<PromMetric> => {
  const snapshot = Metric.unsafeSnapshot()
  const byName = new Map<string, { type: PromMetric["type"]; help: string }>()
  for (const { metricKey } of snapshot) {
    const type = typeOf(metricKey)
    if (type === undefined || !metricKey.name.startsWith(prefix) || byName.has(metricKey.name)) continue
    byName.set(metricKey.name, { type, help: Option.getOrElse(metricKey.description, () => metricKey.name) })
  }
  return [...byName].map(([name, { type, help }]) => promMetric(name, type, help, () => valuesOf(name, snapshot)))
}
