/**
 * Prerequisites in the evaluator, case by case: met, not met, prerequisite disabled, missing,
 * in error, nested, and the definitions that cannot be evaluated (cycle, too deep, too much work),
 * which answer ERROR instead of looping whatever the stored data.
 */
import { describe, expect, it } from "@effect/vitest"
import type { SnapshotFlag } from "../../src/domain/evaluation/ConfigSnapshot.js"
import * as Evaluate from "../../src/domain/evaluation/Evaluate.js"
import type { Prerequisite } from "../../src/domain/definitions/Targeting.js"
import { booleanFlag, snapshot } from "./fixtures.js"

/** A boolean flag serving `on` by default (`off` when off) that requires `prerequisites`. */
const flag = (key: string, prerequisites: ReadonlyArray<Prerequisite> = [], overrides: Partial<SnapshotFlag> = {}): SnapshotFlag =>
  booleanFlag({ key, defaultVariationKey: "on", prerequisites, ...overrides })

const on = (flagKey: string): Prerequisite => ({ flagKey, variationKey: "on" })
const off = (flagKey: string): Prerequisite => ({ flagKey, variationKey: "off" })

const context = { key: "user-1", attributes: { plan: "pro" } }

const evaluate = (flags: ReadonlyArray<SnapshotFlag>, key: string) => Evaluate.evaluate(Evaluate.compile(snapshot(flags)), key, context)

const failed = (flagKey: string, prerequisiteKey: string) => ({
  flagKey,
  value: false,
  variationKey: "off",
  reason: { kind: "PREREQUISITE_FAILED", prerequisiteKey }
})

const fallthrough = (flagKey: string) => ({ flagKey, value: true, variationKey: "on", reason: { kind: "FALLTHROUGH" } })

describe("prerequisites", () => {
  // Each case evaluates the flag its expected result names.
  const cases: ReadonlyArray<readonly [name: string, flags: ReadonlyArray<SnapshotFlag>, expected: { readonly flagKey: string; readonly [field: string]: unknown }]> = [
    ["met: the prerequisite serves the named variation", [flag("base"), flag("child", [on("base")])], fallthrough("child")],
    ["not met: it serves another variation", [flag("base", [], { defaultVariationKey: "off" }), flag("child", [on("base")])], failed("child", "base")],
    ["prerequisite disabled: it serves its off variation", [flag("base", [], { enabled: false }), flag("child", [on("base")])], failed("child", "base")],
    ["prerequisite disabled, its off variation named: met", [flag("base", [], { enabled: false }), flag("child", [off("base")])], fallthrough("child")],
    ["prerequisite missing: never met", [flag("child", [on("ghost")])], failed("child", "ghost")],
    [
      "prerequisite in error: never met, even when its fallback is the named variation",
      [flag("base", [], { defaultVariationKey: "nope" }), flag("child", [off("base")])],
      failed("child", "base")
    ],
    [
      "nested: a requires b requires c; c not met fails b, which fails a (named by a's own prerequisite)",
      [flag("c", [], { defaultVariationKey: "off" }), flag("b", [on("c")]), flag("a", [on("b")])],
      failed("a", "b")
    ],
    ["nested, all met", [flag("c"), flag("b", [on("c")]), flag("a", [on("b")])], fallthrough("a")],
    [
      "several: the first one not met is named, in order",
      [flag("x"), flag("y", [], { defaultVariationKey: "off" }), flag("z", [], { defaultVariationKey: "off" }), flag("child", [on("x"), on("y"), on("z")])],
      failed("child", "y")
    ],
    ["a disabled flag never checks its prerequisites (OFF wins)", [flag("child", [on("ghost")], { enabled: false })], {
      flagKey: "child",
      value: false,
      variationKey: "off",
      reason: { kind: "OFF" }
    }],
    [
      "met prerequisites let the rules run",
      [flag("base"), flag("child", [on("base")], { rules: [{ id: "pro", conditions: [{ attribute: "plan", operator: "in", values: ["pro"] }], variationKey: "off" }] })],
      { flagKey: "child", value: false, variationKey: "off", reason: { kind: "RULE_MATCH", ruleId: "pro", ruleIndex: 0 } }
    ]
  ]
  for (const [name, flags, expected] of cases) {
    it(name, () => {
      expect(evaluate(flags, expected.flagKey)).toEqual(expected)
    })
  }

  it("a cycle is ERROR for its flags and for flags that reach it, never a hang", () => {
    const flags = [flag("a", [on("b")]), flag("b", [on("a")]), flag("c", [on("a")]), flag("self", [on("self")]), flag("free")]
    const all = Evaluate.evaluateAll(Evaluate.compile(snapshot(flags)), context)
    for (const key of ["a", "b", "c", "self"]) {
      expect(all[key]!.reason.kind).toBe("ERROR")
      expect(all[key]!.reason.error).toMatch(/^INVALID_DEFINITION: .*prerequisites form a cycle/)
      // The off variation stays the fallback of the error, as for every definition error.
      expect(all[key]!.variationKey).toBe("off")
    }
    expect(all["a"]!.reason.error).toBe("INVALID_DEFINITION: prerequisites form a cycle: a -> b -> a")
    expect(all["free"]).toEqual(fallthrough("free"))
  })

  it("a cycle through a disabled flag is no cycle: the disabled flag never checks", () => {
    const flags = [flag("a", [off("b")]), flag("b", [on("a")], { enabled: false })]
    expect(evaluate(flags, "a")).toEqual(fallthrough("a"))
  })

  it("ten levels are evaluated; eleven are ERROR", () => {
    const chain = (levels: number) => Array.from({ length: levels + 1 }, (_, i) => flag(`f${i}`, i < levels ? [on(`f${i + 1}`)] : []))
    expect(evaluate(chain(10), "f0")).toEqual(fallthrough("f0"))
    const deep = evaluate(chain(11), "f0")
    expect(deep.reason).toEqual({ kind: "ERROR", error: "INVALID_DEFINITION: prerequisites nest 11 levels deep, more than 10" })
  })

  it("a graph that would need more than 1,000 evaluations is ERROR (flags required along many paths)", () => {
    // Ten layers of two flags, each requiring both flags of the next layer: 2^11 - 1 evaluations.
    const layers = Array.from({ length: 10 }, (_, layer) =>
      ["l", "r"].map((side) => flag(`${side}${layer}`, layer < 9 ? [on(`l${layer + 1}`), on(`r${layer + 1}`)] : []))
    ).flat()
    const result = evaluate(layers, "l0")
    expect(result.reason.kind).toBe("ERROR")
    expect(result.reason.error).toContain("more than 1000 flag evaluations")
    // Lower layers need fewer evaluations and still serve.
    expect(evaluate(layers, "l3")).toEqual(fallthrough("l3"))
  })

  it("a cycle of 30,000 flags written straight into storage compiles and answers ERROR without overflowing the stack", () => {
    const flags = Array.from({ length: 30_000 }, (_, i) => flag(`f${i}`, [on(`f${(i + 1) % 30_000}`)]))
    const compiled = Evaluate.compile(snapshot(flags))
    expect(Evaluate.evaluate(compiled, "f0", context).reason.kind).toBe("ERROR")
    expect(Evaluate.evaluate(compiled, "f29999", context).reason.kind).toBe("ERROR")
  })

  it("malformed prerequisites in stored data make the flag ERROR, not the snapshot", () => {
    const broken = { ...flag("child"), prerequisites: [{ flagKey: 3 }] } as unknown as SnapshotFlag
    const result = evaluate([flag("base"), broken], "child")
    expect(result.reason).toEqual({ kind: "ERROR", error: "INVALID_DEFINITION: prerequisite 0 needs a flagKey and a variationKey" })
    expect(evaluate([flag("base"), broken], "base")).toEqual(fallthrough("base"))
  })
})
