import { describe, expect, it } from "@effect/vitest"
import type { EvaluationResult } from "../../src/domain/evaluation/EvaluationResult.js"
import { EvaluationCounter, MAX_PENDING_REPORTED } from "../../src/domain/insights/EvaluationCounter.js"
import { MAX_COUNT } from "../../src/domain/insights/ReportBounds.js"

const result = (flagKey: string, variationKey: string | null, kind: "RULE_MATCH" | "FALLTHROUGH" = "FALLTHROUGH", frozen = true): EvaluationResult => {
  const r = { flagKey, value: variationKey, variationKey, reason: { kind } }
  return frozen ? Object.freeze(r) : r
}

const totals = (counter: EvaluationCounter) =>
  counter.drain().map((p) => `${p.projectId}/${p.environmentKey}/${p.flagKey}/${p.variationKey}=${p.count}`).sort()

describe("EvaluationCounter", () => {
  it("adds counts by flag and variation whatever the path: key, shared result, fresh result, several results of one variation", () => {
    const counter = new EvaluationCounter()
    const onByRule = result("f", "on", "RULE_MATCH")
    const onByDefault = result("f", "on")
    for (let i = 0; i < 3; i++) counter.countResults("p", "prod", { f: onByRule, g: result("g", "x", "FALLTHROUGH", false) })
    counter.countResult("p", "prod", onByDefault)
    counter.count("p", "prod", "f", "on")
    counter.count("p", "dev", "f", "off")
    counter.countResult("p", "prod", result("broken", null))
    counter.count("p", "prod", "broken", null)
    expect(counter.isEmpty).toBe(false)
    expect(totals(counter)).toEqual(["p/dev/f/off=1", "p/prod/f/on=5", "p/prod/g/x=3"])
    expect(counter.isEmpty).toBe(true)
    expect(counter.drain()).toEqual([])
  })

  it("keeps SDK counts with their hour, and takes back what a failed flush could not write", () => {
    const counter = new EvaluationCounter()
    counter.add("p", "prod", "2026-11-23T14:00:00.000Z", "2026-11-23T14:20:00.000Z", [{ flagKey: "f", variationKey: "on", count: 40 }])
    counter.count("p", "prod", "f", "on")
    const pending = counter.drain()
    expect(pending.map((p) => [p.hour, p.count])).toEqual([["2026-11-23T14:00:00.000Z", 40], [undefined, 1]])
    counter.restore(pending)
    counter.count("p", "prod", "f", "on")
    expect(counter.drain().reduce((sum, p) => sum + p.count, 0)).toBe(42)
  })

  it("sums repeated SDK counts into one, saturating, and refuses new ones past MAX_PENDING_REPORTED (taking nothing)", () => {
    const counter = new EvaluationCounter()
    const hour = "2026-11-23T14:00:00.000Z"
    const entries = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => ({ flagKey: `${prefix}${i}`, variationKey: "on", count: 1 }))
    for (let i = 0; i < MAX_PENDING_REPORTED / 1000; i++) expect(counter.add("p", "prod", hour, hour, entries(1000, `f${i}-`))).toBe(true)
    // Full: a report naming a new count is refused whole; one adding to held counts is taken.
    expect(counter.add("p", "prod", hour, hour, [...entries(1, "f0-"), ...entries(1, "new")])).toBe(false)
    expect(counter.add("p", "prod", hour, hour, [{ flagKey: "f0-0", variationKey: "on", count: MAX_COUNT }])).toBe(true)
    const pending = counter.drain()
    expect(pending.length).toBe(MAX_PENDING_REPORTED)
    expect(pending.find((p) => p.flagKey === "f0-0")?.count).toBe(MAX_COUNT)
    expect(pending.some((p) => p.flagKey === "new0")).toBe(false)
    expect(counter.add("p", "prod", hour, hour, entries(1, "new"))).toBe(true)
  })
})
