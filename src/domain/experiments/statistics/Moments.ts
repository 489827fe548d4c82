/**
 * A sample summarised by its sufficient statistics: how many values, their sum and the sum of
 * their squares. Every figure of an experiment's results comes from these, so the database hands
 * over three numbers per metric and variation instead of a row per unit.
 */
export interface Moments {
  readonly n: number
  readonly sum: number
  readonly sumSquares: number
}

export const EMPTY_MOMENTS: Moments = { n: 0, sum: 0, sumSquares: 0 }

/** The moments of a list of values (tests and simulations build samples this way). */
export const momentsOf = (values: ReadonlyArray<number>): Moments => {
  let sum = 0
  let sumSquares = 0
  for (const v of values) {
    sum += v
    sumSquares += v * v
  }
  return { n: values.length, sum, sumSquares }
}

/** Two samples taken together. */
export const combine = (a: Moments, b: Moments): Moments => ({ n: a.n + b.n, sum: a.sum + b.sum, sumSquares: a.sumSquares + b.sumSquares })

/** The sample mean; 0 for an empty sample, so the function is total (callers check `n`). */
export const mean = (m: Moments): number => (m.n > 0 ? m.sum / m.n : 0)

/**
 * The sample variance (n − 1 in the denominator); 0 with fewer than two values. Rounding can make
 * `sumSquares − sum²/n` a hair below zero for a constant sample: it is clamped to 0.
 */
export const sampleVariance = (m: Moments): number => (m.n > 1 ? Math.max(0, (m.sumSquares - (m.sum * m.sum) / m.n) / (m.n - 1)) : 0)
