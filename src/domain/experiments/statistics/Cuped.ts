import type { Moments } from "./Moments.js"

/**
 * One arm's sufficient statistics for CUPED: the metric's moments plus the covariate's (the same
 * metric in the days before each unit's first exposure) and the cross sum Σ pre·metric.
 */
export interface CovariateMoments extends Moments {
  readonly preSum: number
  readonly preSumSquares: number
  readonly crossSum: number
}

/**
 * CUPED's θ = cov(pre, metric) / var(pre) over all units of all arms (so every arm is adjusted by
 * the same line and the adjustment cannot favour one), or 0 when the covariate has no spread
 * (every unit new, say): the adjustment then changes nothing.
 */
export const cupedTheta = (arms: ReadonlyArray<CovariateMoments>): number => {
  let n = 0
  let sum = 0
  let preSum = 0
  let preSumSquares = 0
  let crossSum = 0
  for (const a of arms) {
    n += a.n
    sum += a.sum
    preSum += a.preSum
    preSumSquares += a.preSumSquares
    crossSum += a.crossSum
  }
  if (n < 2) return 0
  const preVariance = preSumSquares - (preSum * preSum) / n
  const covariance = crossSum - (preSum * sum) / n
  const theta = covariance / preVariance
  return preVariance > 0 && Number.isFinite(theta) ? theta : 0
}

/** The mean of the covariate over all units of all arms, the point the adjustment pivots on. */
export const preMean = (arms: ReadonlyArray<CovariateMoments>): number => {
  let n = 0
  let preSum = 0
  for (const a of arms) {
    n += a.n
    preSum += a.preSum
  }
  return n > 0 ? preSum / n : 0
}

/**
 * The moments of the adjusted metric `metric − θ · (pre − preMean)` in one arm, from its sums
 * alone: Σ(y − θx + θm) and Σ(y − θx + θm)² expand into the sums the storage keeps. The analysis
 * then runs on these moments as on any other metric.
 */
export const adjustedMoments = (arm: CovariateMoments, theta: number, pivot: number): Moments => {
  const shift = theta * pivot
  const residualSum = arm.sum - theta * arm.preSum
  const residualSquares = arm.sumSquares - 2 * theta * arm.crossSum + theta * theta * arm.preSumSquares
  return {
    n: arm.n,
    sum: residualSum + arm.n * shift,
    sumSquares: residualSquares + 2 * shift * residualSum + arm.n * shift * shift
  }
}
