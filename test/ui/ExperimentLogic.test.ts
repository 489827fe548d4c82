/**
 * The experiments' pure helpers: which rules of a flag an experiment may measure, how a rule
 * reads, and the create form's body (typed numbers that are not numbers go to the API as null,
 * which refuses them by their field, rather than the page inventing a value); a result's verdict
 * in words and the lift chart's geometry.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { createBody, DEFAULT_ANALYSIS, NEW_METRIC, rolloutRules } from "../../ui/lib/experiments.js"
import { liftLayout, percent, signedPercent, verdictSentence, verdictWord } from "../../ui/lib/lift.js"
import type { Flag } from "../../ui/lib/types.js"

const flag = {
  key: "new-checkout",
  variations: [{ key: "v2", value: true }, { key: "classic", value: false }, { key: "v3", value: true }],
  configs: [
    {
      environmentKey: "production",
      rules: [
        { id: "r-beta", name: "Beta list", conditions: [], variationKey: "v2" },
        { id: "r-half", name: "Half", conditions: [], rollout: { variations: [{ variationKey: "v2", weight: 50_000 }, { variationKey: "classic", weight: 50_000 }, { variationKey: "v3", weight: 0 }] } },
        { id: "r-rest", conditions: [], rollout: { variations: [{ variationKey: "classic", weight: 12_500 }, { variationKey: "v3", weight: 87_500 }] } }
      ]
    },
    { environmentKey: "development", rules: [] }
  ]
} as unknown as Flag

describe("rolloutRules", () => {
  it("offers only the rules that split units by a percentage, numbered by their place in the targeting, with the variations they serve", () => {
    expect(rolloutRules(flag, "production")).toEqual([
      { id: "r-half", label: "Rule 2 “Half”: v2 50%, classic 50%, v3 0%", served: ["v2", "classic"] },
      { id: "r-rest", label: "Rule 3: classic 12.5%, v3 87.5%", served: ["classic", "v3"] }
    ])
  })

  it("offers none for an environment without such a rule, an unknown environment or no flag", () => {
    expect(rolloutRules(flag, "development")).toEqual([])
    expect(rolloutRules(flag, "staging")).toEqual([])
    expect(rolloutRules(undefined, "production")).toEqual([])
  })
})

describe("createBody", () => {
  const draft = {
    key: "checkout-redesign",
    name: "",
    hypothesis: "  ",
    flagKey: "new-checkout",
    environment: "production",
    ruleId: "r-half",
    controlVariationKey: "classic",
    metrics: [{ ...NEW_METRIC, key: "purchases", event: "purchase", windowHours: "168" }, { ...NEW_METRIC, key: "revenue", event: "purchase", kind: "mean" as const, role: "secondary" as const }],
    method: DEFAULT_ANALYSIS.method,
    alpha: "0.05",
    cuped: true,
    preWindowDays: "7",
    plannedUnits: "20000"
  }

  it("sends the typed fields, leaving out an empty name and hypothesis and an empty window", () => {
    expect(createBody(draft)).toEqual({
      key: "checkout-redesign",
      flagKey: "new-checkout",
      environment: "production",
      ruleId: "r-half",
      controlVariationKey: "classic",
      metrics: [
        { key: "purchases", event: "purchase", kind: "conversion", goal: "increase", role: "primary", windowHours: 168 },
        { key: "revenue", event: "purchase", kind: "mean", goal: "increase", role: "secondary" }
      ],
      analysis: { method: "sequential", alpha: 0.05, cuped: true, preWindowDays: 7, plannedUnits: 20_000 }
    })
  })

  it("sends what is not a number as null, for the API to refuse by its field", () => {
    const body = createBody({ ...draft, alpha: "", plannedUnits: "lots", metrics: [{ ...draft.metrics[0]!, windowHours: "a week" }] })
    expect(body.analysis).toMatchObject({ alpha: null, plannedUnits: null })
    expect(body.metrics[0]).toMatchObject({ windowHours: null })
  })
})

describe("the verdict in words", () => {
  const base = { variation: "Checkout v2", metric: "conversion", estimate: 0.041, ci: [0.012, 0.07] as const, verdict: "better" as const, caveat: "none" as const }

  it("names the direction of a clear result, with its interval", () => {
    expect(verdictSentence(base)).toBe("Checkout v2 raised conversion by 4.1% (1.2% to 7.0%).")
    expect(verdictSentence({ ...base, estimate: -0.031, ci: [-0.05, -0.004], verdict: "worse" })).toBe("Checkout v2 lowered conversion by 3.1% (−5.0% to −0.4%).")
    // a decrease goal: a drop is better, and still reads as a drop
    expect(verdictSentence({ ...base, metric: "errors", estimate: -0.2, ci: [-0.3, -0.1], verdict: "better" })).toBe("Checkout v2 lowered errors by 20.0% (−30.0% to −10.0%).")
    // over a negative control mean (−10 to −5: a lift of −50%) the change is a rise, as the difference says
    expect(verdictSentence({ ...base, metric: "balance", estimate: -0.5, ci: [-0.6, -0.4], verdict: "better", difference: 5 })).toBe("Checkout v2 raised balance by 50.0% (−60.0% to −40.0%).")
  })

  it("claims no direction for an inconclusive result, too few units, a mismatched sample or no interval", () => {
    const unclear = { ...base, estimate: 0.012, ci: [-0.03, 0.054] as const, verdict: "inconclusive" as const }
    expect(verdictSentence(unclear)).toBe("Checkout v2 changed conversion by +1.2% (−3.0% to 5.4%): no clear difference yet.")
    expect(verdictSentence({ ...base, caveat: "not-enough-data" })).toBe("Checkout v2 changed conversion by +4.1% (1.2% to 7.0%): not enough data yet.")
    expect(verdictSentence({ ...base, caveat: "mismatch" })).toBe("Checkout v2 changed conversion by +4.1% (1.2% to 7.0%), but the sample is mismatched: do not trust this.")
    expect(verdictSentence({ ...base, ci: null })).toBe("Checkout v2 changed conversion by +4.1%: too few units for an interval yet.")
    expect(verdictWord("better", "mismatch")).toBe("untrusted")
    expect(verdictWord("inconclusive", "none")).toBe("no clear difference")
  })

  it("writes percentages to one decimal with a real minus sign, and no sign for zero", () => {
    expect([percent(0.041), percent(-0.03), percent(-0.0001), signedPercent(0.012), signedPercent(0), signedPercent(-0.5)]).toEqual(["4.1%", "−3.0%", "0.0%", "+1.2%", "0.0%", "−50.0%"])
  })
})

describe("liftLayout", () => {
  const geometry = { left: 10, width: 500, top: 0, rowHeight: 40 }

  it("always shows zero, and places each interval and estimate in order on one scale", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.double({ min: -5, max: 5, noNaN: true }), fc.double({ min: 0, max: 3, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })), { minLength: 1, maxLength: 5 }),
        (specs) => {
          const rows = specs.map(([low, width, at], i) => ({ label: `v${i}`, ci: [low, low + width] as const, estimate: low + width * at, verdict: "inconclusive" as const }))
          const chart = liftLayout(rows, geometry)
          const inside = (x: number) => x >= geometry.left - 1e-9 && x <= geometry.left + geometry.width + 1e-9
          expect(inside(chart.xZero)).toBe(true)
          chart.rows.forEach((r, i) => {
            expect(r.xLow).toBeLessThanOrEqual(r.xEstimate + 1e-9)
            expect(r.xEstimate).toBeLessThanOrEqual(r.xHigh + 1e-9)
            expect([r.xLow, r.xHigh].every(inside)).toBe(true)
            expect(r.y).toBe(geometry.top + (i + 0.5) * geometry.rowHeight)
            // an interval clear of zero is never drawn across the zero line
            if (r.ci[0] > 0) expect(r.xLow).toBeGreaterThanOrEqual(chart.xZero)
            if (r.ci[1] < 0) expect(r.xHigh).toBeLessThanOrEqual(chart.xZero)
          })
          expect(chart.ticks.some((t) => Math.abs(t.x - chart.xZero) < 1e-6 && t.text === "0.0%")).toBe(true)
        }
      )
    )
  })

  it("labels a scale from −10% to +20% in even steps", () => {
    const chart = liftLayout([{ label: "v2", estimate: 0.05, ci: [-0.08, 0.17], verdict: "inconclusive" }], geometry)
    expect(chart.ticks.map((t) => t.text)).toEqual(["−10.0%", "0.0%", "+10.0%", "+20.0%"])
    expect(chart.xZero).toBeCloseTo(10 + 500 / 3)
  })
})
