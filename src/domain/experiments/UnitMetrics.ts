/**
 * What a unit's events count for, per metric (docs/guide/experiments.md): with F the unit's first
 * exposure, an event at `at` is
 * - post-exposure when F ≤ at < F + window (no end without a window): it adds to `postSum` and
 *   `postCount` (a conversion metric is `postCount > 0`, a mean metric `postSum`);
 * - the CUPED covariate when F − preWindow ≤ at < F: it adds to `preSum` and `preCount`;
 * - nothing otherwise.
 * The one definition every backend applies, whatever the order events and exposures arrive in.
 *
 * Why nothing overflows: values are at most 10^12 in absolute value (`ingestValue`) and sums are
 * IEEE doubles, so a sum of n events is at most n · 10^12 and a sum of squares n · 10^24; even
 * n = 2^63 events (more than any key's hourly budget could send in the age of the universe) stays
 * below 10^44, far from a double's 1.8 · 10^308. Counts grow by one per event in 64-bit integers.
 * Sums of whole values are exact while below 2^53 (9 · 10^15).
 */

/** The per-unit figures of one metric. */
export interface MetricFigures {
  readonly postSum: number
  readonly postCount: number
  readonly preSum: number
  readonly preCount: number
}

export const NO_FIGURES: MetricFigures = { postSum: 0, postCount: 0, preSum: 0, preCount: 0 }

/** An event as the definition needs it (see `UnitEvent`). */
export interface TimedValue {
  readonly at: number
  readonly value: number
  readonly windowMs: number | null
  readonly preWindowMs: number
}

/** Where an event falls relative to the first exposure `firstAt` (epoch milliseconds). */
export const placeOf = (event: TimedValue, firstAt: number): "post" | "pre" | "none" => {
  if (event.at >= firstAt) return event.windowMs === null || event.at < firstAt + event.windowMs ? "post" : "none"
  return event.at >= firstAt - event.preWindowMs ? "pre" : "none"
}

/** `figures` with one more event counted against the first exposure `firstAt`. */
export const addEvent = (figures: MetricFigures, event: TimedValue, firstAt: number): MetricFigures => {
  switch (placeOf(event, firstAt)) {
    case "post":
      return { ...figures, postSum: figures.postSum + event.value, postCount: figures.postCount + 1 }
    case "pre":
      return { ...figures, preSum: figures.preSum + event.value, preCount: figures.preCount + 1 }
    case "none":
      return figures
  }
}

/** The figures of some events against the first exposure `firstAt`. */
export const figuresOf = (events: Iterable<TimedValue>, firstAt: number): MetricFigures => {
  let figures = NO_FIGURES
  for (const event of events) figures = addEvent(figures, event, firstAt)
  return figures
}

/** Whether the figures count anything (rows without are not shown). */
export const countsAnything = (figures: MetricFigures): boolean => figures.postCount > 0 || figures.preCount > 0

/**
 * A unit's row of one metric of an experiment, for an exposed unit with events counted: its
 * first exposure and variation (as on its unit row) and the metric's figures.
 */
export interface UnitMetricRow extends MetricFigures {
  readonly experimentId: string
  readonly metricKey: string
  readonly unit: string
  readonly variationKey: string
  readonly variationsSeen: number
}

/**
 * One variation's sufficient statistics of one metric, over its units exposed to that variation
 * only (a unit exposed to several is left out): `n` units, the sum and sum of squares of each
 * unit's metric (a conversion: 1 when it converted, else 0; a mean: its post-exposure sum), and
 * for CUPED the covariate's (the same metric before the first exposure) and the cross sum
 * Σ covariate · metric. Units without events count in `n` with 0. What the results analyse.
 */
export interface ArmMoments {
  readonly n: number
  readonly sum: number
  readonly sumSquares: number
  readonly preSum: number
  readonly preSumSquares: number
  readonly crossSum: number
}

export interface MetricArmTotals {
  readonly variationKey: string
  readonly moments: ArmMoments
}

/** The metric as the aggregate needs it. */
export interface MeasuredMetric {
  readonly key: string
  readonly kind: "conversion" | "mean"
}

/** A unit's metric and covariate values from its figures (see `ArmMoments`). */
export const unitValues = (figures: MetricFigures, kind: MeasuredMetric["kind"]): { readonly value: number; readonly covariate: number } =>
  kind === "conversion"
    ? { value: figures.postCount > 0 ? 1 : 0, covariate: figures.preCount > 0 ? 1 : 0 }
    : { value: figures.postSum, covariate: figures.preSum }

const EMPTY_MOMENTS: ArmMoments = { n: 0, sum: 0, sumSquares: 0, preSum: 0, preSumSquares: 0, crossSum: 0 }

/**
 * The definition of `ArmMoments`, from the experiment's unit rows (variation and variations seen)
 * and the metric's rows: what the SQL aggregate computes in one query.
 */
export const armTotals = (
  units: ReadonlyArray<{ readonly variationKey: string; readonly variationsSeen: number }>,
  rows: ReadonlyArray<UnitMetricRow>,
  metric: MeasuredMetric
): ReadonlyArray<MetricArmTotals> => {
  const arms = new Map<string, ArmMoments>()
  for (const unit of units) {
    if (unit.variationsSeen !== 1) continue
    const arm = arms.get(unit.variationKey) ?? EMPTY_MOMENTS
    arms.set(unit.variationKey, { ...arm, n: arm.n + 1 })
  }
  for (const row of rows) {
    if (row.metricKey !== metric.key || row.variationsSeen !== 1) continue
    const arm = arms.get(row.variationKey) ?? EMPTY_MOMENTS
    const { covariate, value } = unitValues(row, metric.kind)
    arms.set(row.variationKey, {
      n: arm.n,
      sum: arm.sum + value,
      sumSquares: arm.sumSquares + value * value,
      preSum: arm.preSum + covariate,
      preSumSquares: arm.preSumSquares + covariate * covariate,
      crossSum: arm.crossSum + covariate * value
    })
  }
  return [...arms].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([variationKey, moments]) => ({ variationKey, moments }))
}
