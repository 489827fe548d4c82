/**
 * The engine against the reference values computed with scipy (test/fixtures/stats-vectors.json):
 * every figure agrees to 1e-9 relative or 1e-12 absolute, whichever is looser.
 */
import * as Option from "effect/Option"
import { describe, expect, it } from "vitest"
import { bayesianLift } from "../../../src/domain/experiments/statistics/Bayesian.js"
import { adjustedMoments, type CovariateMoments, cupedTheta, preMean } from "../../../src/domain/experiments/statistics/Cuped.js"
import { twoSidedNormalP } from "../../../src/domain/experiments/statistics/Distributions.js"
import type { Moments } from "../../../src/domain/experiments/statistics/Moments.js"
import { relativeLift } from "../../../src/domain/experiments/statistics/RelativeLift.js"
import { sampleRatioCheck } from "../../../src/domain/experiments/statistics/SampleRatio.js"
import { welchTest } from "../../../src/domain/experiments/statistics/Welch.js"
import vectors from "../../fixtures/stats-vectors.json" with { type: "json" }

const RELATIVE = vectors.tolerance.relative
const ABSOLUTE = vectors.tolerance.absolute

/** Within either bound; the message names the figure so a failure says which. */
const agrees = (label: string, actual: number, expected: number) => {
  const error = Math.abs(actual - expected)
  const ok = error <= ABSOLUTE || error <= RELATIVE * Math.abs(expected)
  expect(ok, `${label}: ${actual} vs scipy ${expected} (error ${error})`).toBe(true)
}

const agreesAll = (label: string, actual: Record<string, unknown>, expected: Record<string, unknown>) => {
  for (const [name, want] of Object.entries(expected)) {
    const got = actual[name]
    if (Array.isArray(want)) want.forEach((w, i) => agrees(`${label} ${name}[${i}]`, (got as ReadonlyArray<number>)[i]!, w as number))
    else if (typeof want === "number") agrees(`${label} ${name}`, got as number, want)
    else expect(got, `${label} ${name}`).toEqual(want)
  }
}

interface Pair {
  readonly kind: string
  readonly alpha: number
  readonly control: Moments
  readonly treatment: Moments
}
const named = (v: Pair, i: number) => `#${i} ${v.kind} alpha ${v.alpha}`

describe("the statistics engine against scipy's values", () => {
  it.each(vectors.welch.map((v, i) => [named(v, i), v] as const))("Welch's t test %s", (label, v) => {
    agreesAll(label, Option.getOrThrow(welchTest(v.control, v.treatment, v.alpha)) as never, v.expected)
  })

  it.each(vectors.relative.map((v, i) => [named(v, i), v] as const))("relative lift by the delta method %s", (label, v) => {
    const r = Option.getOrThrow(relativeLift(v.control, v.treatment, v.alpha))
    agreesAll(label, r as never, v.expected)
  })

  it.each(vectors.bayesian.map((v, i) => [named(v, i), v] as const))("Bayesian normal approximation %s", (label, v) => {
    const b = Option.getOrThrow(bayesianLift(v.control, v.treatment, v.alpha))
    agreesAll(label, { lift: b.lift, chanceToBeatControl: b.chanceOfIncrease, credibleInterval: b.credibleInterval }, v.expected)
  })

  it.each(vectors.srm.map((v, i) => [`#${i} ${v.observed.length} variations`, v] as const))("sample-ratio χ² %s", (label, v) => {
    agreesAll(label, sampleRatioCheck(v.observed, v.weights) as never, v.expected)
  })

  it.each(vectors.cuped.map((v, i) => [`#${i}`, v] as const))("CUPED from sums %s", (label, v) => {
    const arm = (a: { pre: ReadonlyArray<number>; metric: ReadonlyArray<number> }): CovariateMoments => {
      let sum = 0, sumSquares = 0, preSum = 0, preSumSquares = 0, crossSum = 0
      a.metric.forEach((y, i) => {
        const x = a.pre[i]!
        sum += y
        sumSquares += y * y
        preSum += x
        preSumSquares += x * x
        crossSum += x * y
      })
      return { n: a.metric.length, sum, sumSquares, preSum, preSumSquares, crossSum }
    }
    const control = arm(v.control)
    const treatment = arm(v.treatment)
    const theta = cupedTheta([control, treatment])
    const pivot = preMean([control, treatment])
    const adjusted = Option.getOrThrow(welchTest(adjustedMoments(control, theta, pivot), adjustedMoments(treatment, theta, pivot), 0.05))
    const raw = Option.getOrThrow(welchTest(control, treatment, 0.05))
    agreesAll(label, {
      theta,
      adjustedDifference: adjusted.difference,
      standardError: adjusted.standardError,
      unadjustedStandardError: raw.standardError,
      pValue: twoSidedNormalP(adjusted.difference / adjusted.standardError)
    }, v.expected)
  })

  it("holds every kind of vector the file has, so none is skipped unseen", () => {
    expect(Object.keys(vectors).sort()).toEqual(["about", "bayesian", "cuped", "relative", "srm", "tolerance", "welch"])
    expect(vectors.welch.length + vectors.relative.length + vectors.bayesian.length + vectors.srm.length + vectors.cuped.length).toBe(162)
  })
})
