/** A release plan's guardrail check on given sums: goal-aware harm, too few units, several guardrails. */
import { describe, expect, it } from "vitest"
import { armOf, checkGuardrails, CONTROL_ARM, TREATMENT_ARM } from "../../../src/domain/experiments/Guardrail.js"
import { compare } from "../../../src/domain/experiments/statistics/Comparison.js"

/** n units of which `hits` had the event (a conversion-like metric: 0 or 1 per unit). */
const rate = (n: number, hits: number) => ({ n, sum: hits, sumSquares: hits })
const settings = { alpha: 0.05, plannedUnits: 10_000 }

describe("checkGuardrails", () => {
  it("calls a doubled error rate harm when the goal is to decrease it, with the figures that decided", () => {
    const check = checkGuardrails([{ key: "errors", goal: "decrease", control: rate(5_000, 250), treatment: rate(5_000, 500) }], settings)
    expect(check.outcome).toBe("harmed")
    const [errors] = check.guardrails
    expect(errors).toMatchObject({ metricKey: "errors", harmed: true, notEnoughData: false, alpha: 0.05 })
    expect(errors!.treatment).toEqual({ units: 5_000, mean: 0.1 })
    expect(errors!.control).toEqual({ units: 5_000, mean: 0.05 })
    expect(errors!.relative!.estimate).toBeCloseTo(1, 12)
    expect(errors!.relative!.ci![0]).toBeGreaterThan(0)
    expect(errors!.pValue).toBeLessThan(0.05)
  })

  it("calls the same rise no harm when the goal is to increase the metric", () => {
    const check = checkGuardrails([{ key: "signups", goal: "increase", control: rate(5_000, 250), treatment: rate(5_000, 500) }], settings)
    expect(check.outcome).toBe("ok")
    expect(check.guardrails[0]!.harmed).toBe(false)
  })

  it("calls a fall harm for an increase goal", () => {
    const check = checkGuardrails([{ key: "signups", goal: "increase", control: rate(5_000, 500), treatment: rate(5_000, 250) }], settings)
    expect(check.outcome).toBe("harmed")
  })

  it("decides on the sequence, not the fixed-horizon test: a difference the fixed test calls is not yet harm", () => {
    const control = rate(2_000, 200)
    const treatment = rate(2_000, 250)
    expect(compare(control, treatment, { method: "frequentist", alpha: 0.05, plannedUnits: 10_000, goal: "decrease" }).verdict).toBe("worse")
    expect(checkGuardrails([{ key: "errors", goal: "decrease", control, treatment }], settings).outcome).toBe("ok")
  })

  it("decides nothing below the minimum units in an arm, however large the difference", () => {
    const check = checkGuardrails([{ key: "errors", goal: "decrease", control: rate(5_000, 50), treatment: rate(99, 99) }], settings)
    expect(check.outcome).toBe("ok")
    expect(check.guardrails[0]).toMatchObject({ notEnoughData: true, harmed: false })
    expect(check.minimumUnits).toBe(100)
  })

  it("uses the difference when the control never had the event (no lift relative to nothing)", () => {
    const check = checkGuardrails([{ key: "crashes", goal: "decrease", control: rate(5_000, 0), treatment: rate(5_000, 100) }], settings)
    expect(check.guardrails[0]!.relative).toBeNull()
    expect(check.guardrails[0]!.absolute!.estimate).toBeCloseTo(0.02, 12)
    expect(check.outcome).toBe("harmed")
  })

  it("splits alpha between several guardrails and names only the harmed one", () => {
    const check = checkGuardrails(
      [
        { key: "errors", goal: "decrease", control: rate(5_000, 250), treatment: rate(5_000, 500) },
        { key: "signups", goal: "increase", control: rate(5_000, 500), treatment: rate(5_000, 505) }
      ],
      settings
    )
    expect(check.outcome).toBe("harmed")
    expect(check.guardrails.map((g) => [g.metricKey, g.alpha, g.harmed])).toEqual([["errors", 0.025, true], ["signups", 0.025, false]])
  })

  it("is ok with no data at all, and with no guardrails", () => {
    expect(checkGuardrails([{ key: "errors", goal: "decrease", control: rate(0, 0), treatment: rate(0, 0) }], settings)).toMatchObject({ outcome: "ok" })
    expect(checkGuardrails([], settings)).toEqual({ outcome: "ok", guardrails: [], minimumUnits: 100 })
  })
})

describe("armOf", () => {
  it("puts the ramped variation in the treatment and every other variation in the control", () => {
    expect(armOf("new-checkout", "new-checkout")).toBe(TREATMENT_ARM)
    expect(armOf("new-checkout", "old-checkout")).toBe(CONTROL_ARM)
    expect(armOf("new-checkout", "legacy")).toBe(CONTROL_ARM)
  })
})
