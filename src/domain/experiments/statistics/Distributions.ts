import gammainc from "@stdlib/math-base-special-gammainc"
import normalCdf from "@stdlib/stats-base-dists-normal-cdf"
import normalQuantile from "@stdlib/stats-base-dists-normal-quantile"
import studentCdf from "@stdlib/stats-base-dists-t-cdf"
import studentQuantile from "@stdlib/stats-base-dists-t-quantile"

/**
 * The distribution functions the statistics need, from stdlib's per-function packages (agreeing
 * with scipy to 1e-9 on the reference vectors; docs/internals/decisions.md says why a library and
 * not our own): each is one small module, so the server loads only these five.
 */

/** Φ(x): the standard normal's lower tail. */
export const standardNormalCdf = (x: number): number => normalCdf(x, 0, 1)

/** Φ⁻¹(p): the standard normal's quantile. */
export const standardNormalQuantile = (p: number): number => normalQuantile(p, 0, 1)

/** The two-sided p-value of a standard normal statistic, from the lower tail so tiny values keep their digits. */
export const twoSidedNormalP = (z: number): number => Math.min(1, 2 * normalCdf(-Math.abs(z), 0, 1))

/** The two-sided p-value of a Student t statistic with `degreesOfFreedom`. */
export const twoSidedStudentP = (t: number, degreesOfFreedom: number): number => Math.min(1, 2 * studentCdf(-Math.abs(t), degreesOfFreedom))

/** The Student t quantile with `degreesOfFreedom`. */
export const studentTQuantile = (p: number, degreesOfFreedom: number): number => studentQuantile(p, degreesOfFreedom)

/**
 * P(χ²(degreesOfFreedom) ≥ x), the χ² upper tail, as the regularized upper incomplete gamma
 * Q(k/2, x/2) directly: `1 − cdf` would round the tiny p-values of a badly mismatched sample to 0.
 */
export const chiSquareUpperTail = (x: number, degreesOfFreedom: number): number => gammainc(x / 2, degreesOfFreedom / 2, true, true)
