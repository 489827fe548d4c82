/**
 * Adjacent rules serving the same variation joined into one rule with a group (the flagd import's
 * last step): shared conditions beside the group, a run past 20 alternatives split, rollouts and
 * long rules left alone. That the joined rules answer as flagd does is Parity.test.ts's job.
 */
import { describe, expect, it } from "@effect/vitest"
import { joinAlternatives, type PlainRule } from "../../../src/domain/flagd/Alternatives.js"
import type { Condition } from "../../../src/domain/definitions/Targeting.js"

const eq = (attribute: string, value: string): Condition => ({ attribute, operator: "in", values: [value] })
const serve = (variationKey: string, ...conditions: ReadonlyArray<Condition>): PlainRule => ({ conditions, variationKey })

describe("joinAlternatives", () => {
  it("joins a run serving the same variation, keeping what follows in order", () => {
    expect(joinAlternatives([serve("on", eq("a", "1")), serve("on", eq("b", "2")), serve("off", eq("c", "3")), serve("on", eq("d", "4"))])).toEqual([
      { conditions: [{ anyOf: [[eq("a", "1")], [eq("b", "2")]] }], variationKey: "on" },
      serve("off", eq("c", "3")),
      serve("on", eq("d", "4"))
    ])
  })

  it("keeps conditions every rule of the run shares beside the group", () => {
    expect(joinAlternatives([serve("on", eq("country", "DE"), eq("a", "1")), serve("on", eq("b", "2"), eq("country", "DE"))])).toEqual([
      { conditions: [eq("country", "DE"), { anyOf: [[eq("a", "1")], [eq("b", "2")]] }], variationKey: "on" }
    ])
  })

  it("gives the shared conditions alone when one rule of the run has nothing more", () => {
    expect(joinAlternatives([serve("on", eq("country", "DE"), eq("a", "1")), serve("on", eq("country", "DE"))])).toEqual([serve("on", eq("country", "DE"))])
  })

  it("splits a run past 20 alternatives into joined rules of at most 20 lists", () => {
    const rules = Array.from({ length: 45 }, (_, i) => serve("on", eq("n", String(i))))
    const joined = joinAlternatives(rules)
    expect(joined.map((r) => (r.conditions[0] as { anyOf?: ReadonlyArray<unknown> }).anyOf?.length ?? 1)).toEqual([20, 20, 5])
  })

  it("never joins rollouts, nor rules too long for a list", () => {
    const rollout = { conditions: [eq("a", "1")], rollout: { variations: [{ variationKey: "on", weight: 100_000 }] } }
    const long = serve("on", ...Array.from({ length: 20 }, (_, i) => eq(`x${i}`, "1")))
    expect(joinAlternatives([rollout, rollout, long, serve("on", eq("b", "2"))])).toEqual([rollout, rollout, long, serve("on", eq("b", "2"))])
  })
})
