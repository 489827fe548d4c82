import * as Option from "effect/Option"
import { around, type Interval } from "./Interval.js"

/**
 * The always-valid confidence sequence of the sequential method: the asymptotic normal-mixture
 * confidence sequence of Waudby-Smith, Arbour, Sinha, Kennedy and Ramdas ("Time-uniform central
 * limit theory and asymptotic confidence sequences", 2023, after Robbins' normal mixture). For an
 * estimate from N units whose per-unit variance is σ² (so its standard error is σ/√N), with a
 * mixture of width ρ, the interval
 *
 *   estimate ± σ · √( 2(Nρ² + 1) / (N²ρ²) · log(√(Nρ² + 1) / alpha) )
 *
 * holds the true value at every N at once with probability at least 1 − alpha (asymptotically):
 * looking after every day, or every unit, does not raise the false-alarm rate, unlike the
 * fixed-horizon interval, which is only valid at one planned look.
 *
 * ρ sets where the sequence is tightest: ρ² = (−2 log alpha + log(1 − 2 log alpha)) / N*, the
 * width that minimises the interval at N* units (the experiment's `plannedUnits`). Any ρ keeps
 * the guarantee; only the width over time changes.
 */
export interface ConfidenceSequence {
  readonly ci: Interval
  /** The smallest alpha whose sequence excludes 0 at this look (with the same mixture). */
  readonly pValue: number
}

/** ρ², the mixture's width tuned so the sequence is narrowest at `plannedUnits`. */
export const mixtureRhoSquared = (alpha: number, plannedUnits: number): number => {
  const l = -2 * Math.log(alpha)
  return (l + Math.log(1 + l)) / plannedUnits
}

/**
 * The confidence sequence around `estimate` with `standardError`, from `units` units (both arms
 * together). None when the standard error is not a positive finite number or there are no units.
 */
export const confidenceSequence = (
  estimate: number,
  standardError: number,
  units: number,
  alpha: number,
  plannedUnits: number
): Option.Option<ConfidenceSequence> => {
  if (!(standardError > 0) || !Number.isFinite(standardError) || !(units > 0) || !Number.isFinite(estimate)) return Option.none()
  const rho2 = mixtureRhoSquared(alpha, plannedUnits)
  const growth = units * rho2 + 1
  const scale = (2 * growth) / (units * units * rho2)
  // σ² · scale is (standard error)² · N · scale: kept as the standard error times a root, never
  // squared, so a huge standard error (a control mean near zero) gives no infinite interval.
  const spread = Math.sqrt(units * scale)
  const halfWidth = standardError * spread * Math.sqrt(Math.log(Math.sqrt(growth) / alpha))
  if (!Number.isFinite(halfWidth) || !Number.isFinite(estimate - halfWidth) || !Number.isFinite(estimate + halfWidth)) return Option.none()
  // The mixture martingale at this look is exp(estimate² / (σ² · scale)) / √growth, with scale
  // = 2(Nρ² + 1)/(N²ρ²) as above; its inverse
  // is the always-valid p-value: p < alpha exactly when the interval above excludes 0.
  const standardised = estimate / (standardError * spread)
  const logMartingale = standardised * standardised - 0.5 * Math.log(growth)
  return Option.some({ ci: around(estimate, halfWidth), pValue: Math.min(1, Math.exp(-logMartingale)) })
}
