/**
 * `flagport experiments results` as text: the checks first (a mismatched sample is said before any
 * figure), then one row per metric and variation. Figures are rounded for reading; --json gives
 * them whole, as the API does.
 */
import type { ExperimentResults } from "../../src/domain/experiments/Results.js"

const percent = (x: number) => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(2)}%`
const interval = (ci: readonly [number, number] | null) => (ci === null ? "-" : `[${percent(ci[0])}, ${percent(ci[1])}]`)
const figure = (x: number) => (Math.abs(x) >= 1000 ? x.toFixed(0) : x.toPrecision(4))

/** The KEY=value lines of the checks. */
export const checkLines = (results: ExperimentResults): Array<string> => {
  const { checks } = results
  const ratio = checks.sampleRatio
  return [
    `EXPERIMENT=${results.experimentKey}`,
    `STATUS=${results.status}`,
    `METHOD=${results.method} alpha=${results.alpha}`,
    `TRUSTWORTHY=${results.trustworthy ? "yes" : "no: the units per variation do not match the rollout's weights"}`,
    `SAMPLE_RATIO=${ratio === null ? "-" : `${ratio.variations.map((v) => `${v.variationKey}:${v.units}/${figure(v.expectedUnits)}`).join(" ")} p=${ratio.pValue.toPrecision(3)}${ratio.mismatch ? " MISMATCH" : ""}`}`,
    `UNITS_IN_SEVERAL_VARIATIONS=${checks.unitsInSeveralVariations}`,
    `TARGETING_CHANGES=${checks.targetingChanges.length === 0 ? "-" : checks.targetingChanges.map((c) => c.at).join(" ")}`,
    `NOT_ENOUGH_DATA=${checks.notEnoughData ? `yes (fewer than ${checks.minimumUnits} units in some variation)` : "no"}`
  ]
}

export const RESULT_HEADER = ["METRIC", "VARIATION", "UNITS", "MEAN", "LIFT", "INTERVAL", "P/CHANCE", "VERDICT"]

/** One row per metric and variation: the control with its figures, each treatment with its lift against it. */
export const resultRows = (results: ExperimentResults): Array<Array<string>> =>
  results.metrics.flatMap((metric) =>
    metric.variations.map((v) => {
      const c = metric.comparisons.find((x) => x.variationKey === v.variationKey)
      const base = [metric.key, v.variationKey, String(v.units), figure(v.mean)]
      if (c === undefined) return [...base, "control", "-", "-", "-"]
      const evidence = c.pValue !== null ? `p=${c.pValue.toPrecision(3)}` : c.chanceToBeatControl !== null ? `${(c.chanceToBeatControl * 100).toFixed(1)}%` : "-"
      return [
        ...base,
        c.relative === null ? "-" : percent(c.relative.estimate),
        interval(c.relative?.ci ?? null),
        evidence,
        `${c.verdict}${c.cupedApplied ? " (cuped)" : ""}`
      ]
    })
  )
