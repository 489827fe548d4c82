import { chiSquareUpperTail } from "./Distributions.js"

/** Below this p-value the units per variation are too far from the rollout's weights to trust the result. */
export const SAMPLE_RATIO_THRESHOLD = 0.001

/** Pearson's χ² of the units seen per variation against the rollout's weights. */
export interface SampleRatioCheck {
  readonly chiSquare: number
  readonly pValue: number
  readonly mismatch: boolean
}

/**
 * The sample-ratio check: χ² = Σ (observed − expected)² / expected with the expected counts in
 * proportion to `weights` (any scale, thousandths of a percent in a rollout), k − 1 degrees of
 * freedom. A variation with weight 0 is expected to get no one: if it got units anyway the
 * split is wrong whatever the others show (p-value 0, a mismatch; χ² over the weighted ones),
 * else it is left out. With fewer than two weighted variations or no units there is nothing to
 * compare: χ² 0, p-value 1.
 */
export const sampleRatioCheck = (observed: ReadonlyArray<number>, weights: ReadonlyArray<number>): SampleRatioCheck => {
  const all = observed.map((o, i) => ({ o, w: weights[i] ?? 0 }))
  const cells = all.filter((c) => c.w > 0)
  const unexpected = all.some((c) => c.w <= 0 && c.o > 0)
  const total = cells.reduce((s, c) => s + c.o, 0)
  const weightTotal = cells.reduce((s, c) => s + c.w, 0)
  if (cells.length < 2 || total === 0) return unexpected ? { chiSquare: 0, pValue: 0, mismatch: true } : { chiSquare: 0, pValue: 1, mismatch: false }
  const chiSquare = cells.reduce((s, c) => {
    const expected = (total * c.w) / weightTotal
    return s + ((c.o - expected) * (c.o - expected)) / expected
  }, 0)
  const pValue = unexpected ? 0 : chiSquareUpperTail(chiSquare, cells.length - 1)
  return { chiSquare, pValue, mismatch: pValue < SAMPLE_RATIO_THRESHOLD }
}
